/**
 * A real Kaspa stratum pool for tests, on 127.0.0.1 and an ephemeral port, speaking the bridge
 * protocol (protocols.md §D): subscribe → [true, "EthereumStratum/1.0.0"]; after the first authorize
 * mining.set_extranonce (this connection's prefix), mining.set_difficulty and mining.notify in the
 * form the agent asks for (the 80-hex form for BzMiner/IceRiverMiner, else the u64 array), or the
 * form forced by an option. Every share is recomputed with kHeavyHash (kheavyhash.ts) and rejected
 * when stale, duplicate, outside the connection's prefix or above the target. Accepted work is
 * credited per submitted worker name (which must be authorized on the connection), in difficulty.
 */
import { randomInt } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { type Envelope, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { type KaspaJob, makeJob, notifyParamsText } from "./kaspa-job.ts";
import { type HeavyHashAlgorithm, targetOfDifficulty } from "./kheavyhash.ts";

export interface TestKaspaPoolOptions {
  /** stratum difficulty; the default 2^-24 is a share every 256 hashes on average */
  difficulty?: number;
  /** the prefix each connection is given, 0–2 bytes */
  extranonceBytes?: number;
  /** the notify form for every connection, whatever its agent */
  notifyForm?: "u64" | "hex";
  /** a new job this often; 0 = never */
  jobIntervalMs?: number;
  /** benchmarks only: accept any well-formed unique share without hashing (the proxy is measured) */
  trustShares?: boolean;
  /** the heavy hash shares are verified with (default Kaspa's; PYRIN for blake3s) */
  algorithm?: HeavyHashAlgorithm;
  /** workers this pool does not know: their mining.authorize is answered 24, Unauthorized worker */
  unknownWorkers?: string[];
}

export type RejectReason =
  | "malformed"
  | "unauthorized"
  | "stale"
  | "outside-prefix"
  | "duplicate"
  | "low-difficulty";

interface Grant {
  job: KaspaJob;
  target: bigint;
  difficulty: number;
  extranonce: string;
}

interface Conn {
  id: number;
  write(line: string): void;
  agent: string;
  subscribed: boolean;
  extranonceSubscribed: boolean;
  authorized: Set<string>;
  extranonce: string;
  difficulty: number;
  sentDifficulty: number | null;
  grants: Map<string, Grant>;
}

export interface WorkerRecord {
  shares: number;
  work: number;
}

const reply = (id: unknown, result: unknown): string => `${JSON.stringify({ id, result, error: null })}\n`;
const failure = (id: unknown, code: number, message: string): string =>
  `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;
const notification = (method: string, params: unknown[]): string =>
  `${JSON.stringify({ id: null, method, params })}\n`;

const HEX_FORM_AGENTS = /BzMiner|IceRiverMiner/i;

export class TestKaspaPool {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<RejectReason, number>();
  readonly agents: string[] = [];
  accepted = 0;
  connectionsOpened = 0;
  readonly extranonceBytes: number;
  private difficulty: number;
  private readonly conns = new Map<Socket<Conn>, Conn>();
  private readonly jobs = new Map<string, KaspaJob>();
  private readonly seen = new Set<string>();
  private current: KaspaJob;
  private jobSeq = 0;
  private nextConnId = 1;
  private nextExtranonce: number;
  private listener: TCPSocketListener<Conn> | null = null;
  private jobTimer: ReturnType<typeof setInterval> | null = null;

  private constructor(private readonly opts: TestKaspaPoolOptions) {
    this.extranonceBytes = opts.extranonceBytes ?? 1;
    this.difficulty = opts.difficulty ?? 2 ** -24;
    this.nextExtranonce = this.extranonceBytes === 0 ? 0 : randomInt(256 ** this.extranonceBytes);
    this.current = this.makeJob();
  }

  static start(opts: TestKaspaPoolOptions = {}): TestKaspaPool {
    const pool = new TestKaspaPool(opts);
    pool.listen(0);
    return pool;
  }

  get port(): number {
    return this.listener?.port ?? 0;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get connections(): number {
    return this.conns.size;
  }

  listen(port: number): void {
    const every = this.opts.jobIntervalMs ?? 1000;
    if (every > 0 && this.jobTimer === null) this.jobTimer = setInterval(() => this.newJob(), every);
    const readers = new WeakMap<Socket<Conn>, LineReader>();
    this.listener = Bun.listen<Conn>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: (s) => {
          const c = this.newConn((line) => s.write(line));
          s.data = c;
          this.conns.set(s, c);
          this.connectionsOpened++;
          readers.set(
            s,
            new LineReader(
              (line) => this.onLine(s, c, line),
              () => s.end(),
            ),
          );
        },
        data: (s, chunk) => readers.get(s)?.push(chunk),
        close: (s) => {
          this.conns.delete(s);
        },
        error: (s) => {
          this.conns.delete(s);
        },
      },
    });
  }

  stop(): void {
    if (this.jobTimer) clearInterval(this.jobTimer);
    this.jobTimer = null;
    this.listener?.stop(true);
    this.listener = null;
    for (const s of this.conns.keys()) s.end();
    this.conns.clear();
  }

  workerWork(name: string): number {
    return this.workers.get(name)?.work ?? 0;
  }

  totalWork(): number {
    let w = 0;
    for (const r of this.workers.values()) w += r.work;
    return w;
  }

  newJob(): void {
    this.current = this.makeJob();
    for (const c of this.conns.values()) this.sendJob(c);
  }

  /** Gives every connection that sent mining.extranonce.subscribe a new prefix, from the next job. */
  rotateExtranonce(): void {
    for (const c of this.conns.values()) {
      if (!c.extranonceSubscribed || this.extranonceBytes === 0) continue;
      c.extranonce = this.allocateExtranonce();
      c.write(notification("mining.set_extranonce", [c.extranonce]));
    }
    this.newJob();
  }

  private newConn(write: (line: string) => void): Conn {
    return {
      id: this.nextConnId++,
      write,
      agent: "",
      subscribed: false,
      extranonceSubscribed: false,
      authorized: new Set(),
      extranonce: this.allocateExtranonce(),
      difficulty: this.difficulty,
      sentDifficulty: null,
      grants: new Map(),
    };
  }

  private allocateExtranonce(): string {
    if (this.extranonceBytes === 0) return "";
    const n = this.nextExtranonce;
    this.nextExtranonce = (n + 1) % 256 ** this.extranonceBytes;
    return n.toString(16).padStart(this.extranonceBytes * 2, "0");
  }

  private makeJob(): KaspaJob {
    const job = makeJob((++this.jobSeq).toString(), this.opts.algorithm);
    this.jobs.set(job.id, job);
    return job;
  }

  private sendJob(c: Conn): void {
    if (c.authorized.size === 0) return;
    if (c.sentDifficulty !== c.difficulty) {
      c.write(notification("mining.set_difficulty", [c.difficulty]));
      c.sentDifficulty = c.difficulty;
    }
    const job = this.current;
    c.grants.set(job.id, {
      job,
      target: targetOfDifficulty(c.difficulty),
      difficulty: c.difficulty,
      extranonce: c.extranonce,
    });
    const form = this.opts.notifyForm ?? (HEX_FORM_AGENTS.test(c.agent) ? "hex" : "u64");
    c.write(`{"id":null,"method":"mining.notify","params":${notifyParamsText(job, form)}}\n`);
  }

  private onLine(s: Socket<Conn>, c: Conn, line: string): void {
    const m = parseEnvelope(line);
    if (m === null) {
      s.end();
      return;
    }
    if (m.method === null) return;
    const first = c.authorized.size === 0;
    c.write(this.answer(c, m));
    if (first && c.authorized.size > 0) {
      // the bridge's order: the prefix, then difficulty and work
      if (c.extranonce !== "") c.write(notification("mining.set_extranonce", [c.extranonce]));
      this.sendJob(c);
    }
  }

  private answer(c: Conn, m: Envelope): string {
    switch (m.method) {
      case "mining.subscribe":
        c.subscribed = true;
        c.agent = typeof m.params[0] === "string" ? m.params[0] : "";
        this.agents.push(c.agent);
        return reply(m.id, [true, "EthereumStratum/1.0.0"]);
      case "mining.extranonce.subscribe":
        c.extranonceSubscribed = true;
        return reply(m.id, true);
      case "mining.authorize": {
        if (!c.subscribed) return failure(m.id, 25, "Not subscribed");
        const user = m.params[0];
        if (typeof user !== "string" || user === "") return failure(m.id, 20, "Invalid user");
        if (this.opts.unknownWorkers?.includes(user)) return failure(m.id, 24, "Unauthorized worker");
        c.authorized.add(user);
        return reply(m.id, true);
      }
      case "mining.submit": {
        const verdict = this.submit(c, m.params);
        return verdict === null ? reply(m.id, true) : failure(m.id, 20, verdict);
      }
      default:
        return failure(m.id, 20, "Method not found");
    }
  }

  private submit(c: Conn, params: unknown[]): RejectReason | null {
    const [user, jobId, nonceText] = params;
    if (typeof user !== "string" || typeof jobId !== "string" || typeof nonceText !== "string")
      return this.reject("malformed");
    if (!c.authorized.has(user)) return this.reject("unauthorized");
    const grant = c.grants.get(jobId);
    if (grant === undefined || this.jobs.get(jobId) !== grant.job) return this.reject("stale");
    const hex = nonceText.replace(/^0x/i, "").toLowerCase();
    if (!/^[0-9a-f]{1,16}$/.test(hex)) return this.reject("malformed");
    let full: string;
    if (hex.length === 16) {
      if (!hex.startsWith(grant.extranonce)) return this.reject("outside-prefix");
      full = hex;
    } else {
      if (hex.length > 16 - grant.extranonce.length) return this.reject("outside-prefix");
      full = grant.extranonce + hex.padStart(16 - grant.extranonce.length, "0");
    }
    const key = `${jobId}:${full}`;
    if (this.seen.has(key)) return this.reject("duplicate");
    if (this.opts.trustShares !== true && grant.job.hasher.pow(BigInt(`0x${full}`)) > grant.target)
      return this.reject("low-difficulty");
    this.seen.add(key);
    this.accepted++;
    const rec = this.workers.get(user) ?? { shares: 0, work: 0 };
    rec.shares++;
    rec.work += grant.difficulty;
    this.workers.set(user, rec);
    return null;
  }

  private reject(reason: RejectReason): RejectReason {
    this.rejects.set(reason, (this.rejects.get(reason) ?? 0) + 1);
    return reason;
  }
}
