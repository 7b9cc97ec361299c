/**
 * An Equihash stratum pool for tests on 127.0.0.1 and an ephemeral port, speaking ZIP 301:
 * subscribe → [null, NONCE_1], authorize, mining.set_target then mining.notify [jobId, version,
 * prevhash, merkleroot, reserved, time, bits, clean], submit [worker, jobId, time, NONCE_2, solution].
 *
 * Every share is verified: a job id this connection was issued and still current, the job's time,
 * a NONCE_2 that fills the 32-byte nonce after the NONCE_1 the job was sent under, a solution with
 * its compactSize length that solves Equihash for the 140-byte header (equihash.ts, with the
 * reduced Equihash parameters of the tests, TEST_PARAMS), a block hash within the target, new for
 * the job, a worker authorized on the connection. Accepted work is credited per worker in diff-1
 * units (chain.ts).
 */
import { hexToBytes } from "@noble/hashes/utils.js";
import type { Socket, TCPSocketListener } from "bun";
import { type Envelope, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { creditOfTarget, targetHex, targetOfDifficulty } from "./chain.ts";
import { type Params, TEST_PARAMS, verify } from "./equihash.ts";
import { type HeaderFields, hashValue, headerBytes } from "./header.ts";

export interface TestEqPoolOptions {
  /** share difficulty of every connection in diff-1 units; the default makes most solutions a share */
  difficulty?: number;
  /** NONCE_1 bytes per connection (default 4) */
  nonce1Bytes?: number;
  /** a new job of the same block this often (default 1 s); 0 = never */
  jobIntervalMs?: number;
  params?: Params;
  /**
   * benchmarks only: skip the Equihash verification and the target (structure is still checked: job,
   * time, NONCE_2 length, duplicates, worker) and keep no copy of the submits, so a load generator
   * that does not solve can be measured against the proxy instead of against this pool
   */
  trustShares?: boolean;
}

export type RejectReason =
  | "malformed"
  | "unauthorized"
  | "stale"
  | "time"
  | "nonce"
  | "solution"
  | "duplicate"
  | "low difficulty";

interface Job extends HeaderFields {
  id: string;
  block: number;
}

interface Conn {
  nonce1: string;
  subscribed: boolean;
  authorized: Set<string>;
  /** job id → the NONCE_1 it was sent under */
  grants: Map<string, string>;
  write(line: string): void;
}

export interface WorkerRecord {
  shares: number;
  work: number;
}

const DEFAULT_DIFFICULTY = 2 ** -10;
const DEFAULT_JOB_INTERVAL_MS = 1_000;
/** Counted across every pool of the process, so two pools never hand out the same NONCE_1. */
let connectionsEver = 0;
const randomHex = (bytes: number): string =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
const reply = (id: unknown, result: unknown): string => `${JSON.stringify({ id, result, error: null })}\n`;
const failure = (id: unknown, code: number, message: string): string =>
  `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;
const push = (method: string, params: unknown[]): string =>
  `${JSON.stringify({ id: null, method, params })}\n`;
const CODE: Record<RejectReason, number> = {
  malformed: 20,
  unauthorized: 24,
  stale: 21,
  time: 20,
  nonce: 20,
  solution: 20,
  duplicate: 22,
  "low difficulty": 23,
};

export class TestEqPool {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<RejectReason, number>();
  /** the NONCE_1 of every connection, in order */
  readonly nonce1s: string[] = [];
  /** the params of every mining.submit received, as they came */
  readonly submits: unknown[][] = [];
  accepted = 0;
  connectionsOpened = 0;
  readonly target: bigint;
  private readonly params: Params;
  private readonly conns = new Map<Socket<Conn>, Conn>();
  private readonly readers = new Map<Socket<Conn>, LineReader>();
  private readonly jobs = new Map<string, Job>();
  private readonly seen = new Set<string>();
  private current: Job;
  private block = 1;
  private jobSeq = 0;
  private listener: TCPSocketListener<Conn> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  private constructor(private readonly opts: TestEqPoolOptions) {
    this.params = opts.params ?? TEST_PARAMS;
    this.target = targetOfDifficulty(opts.difficulty ?? DEFAULT_DIFFICULTY);
    this.current = this.makeJob();
  }

  static async start(opts: TestEqPoolOptions = {}): Promise<TestEqPool> {
    const p = new TestEqPool(opts);
    p.listen();
    const every = opts.jobIntervalMs ?? DEFAULT_JOB_INTERVAL_MS;
    if (every > 0) p.timer = setInterval(() => p.newJob(false), every);
    return p;
  }

  get port(): number {
    return this.listener?.port ?? 0;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Σ credited work of accepted shares, diff-1 units. */
  totalWork(): number {
    let w = 0;
    for (const r of this.workers.values()) w += r.work;
    return w;
  }

  /** A new job; `newBlock` makes every earlier job stale. */
  newJob(newBlock: boolean): void {
    if (newBlock) {
      this.block++;
      this.seen.clear();
    }
    this.current = this.makeJob();
    for (const c of this.conns.values()) this.sendJob(c, newBlock);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listener?.stop(true);
    this.listener = null;
    for (const s of this.conns.keys()) s.end();
    this.conns.clear();
  }

  private makeJob(): Job {
    const time = Buffer.alloc(4);
    time.writeUInt32LE(Math.floor(Date.now() / 1000));
    const job: Job = {
      id: (++this.jobSeq).toString(16),
      block: this.block,
      version: "04000000",
      prevHash: randomHex(32),
      merkleRoot: randomHex(32),
      reserved: "00".repeat(32),
      time: time.toString("hex"),
      bits: "ffff071f",
    };
    this.jobs.set(job.id, job);
    return job;
  }

  private listen(): void {
    const bytes = this.opts.nonce1Bytes ?? 4;
    this.listener = Bun.listen<Conn>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open: (s) => {
          this.connectionsOpened++;
          const n = ++connectionsEver * 37;
          const nonce1 =
            bytes === 0
              ? ""
              : n
                  .toString(16)
                  .padStart(bytes * 2, "0")
                  .slice(-bytes * 2);
          const conn: Conn = {
            nonce1,
            subscribed: false,
            authorized: new Set(),
            grants: new Map(),
            write: (line) => {
              s.write(line);
            },
          };
          const reader = new LineReader(
            (line) => this.onLine(conn, line),
            () => s.end(),
          );
          s.data = conn;
          this.conns.set(s, conn);
          this.readers.set(s, reader);
        },
        data: (s, chunk) => this.readers.get(s)?.push(chunk),
        close: (s) => {
          this.conns.delete(s);
          this.readers.delete(s);
        },
      },
    });
  }

  private sendJob(c: Conn, clean: boolean): void {
    if (c.authorized.size === 0) return;
    const j = this.current;
    c.grants.set(j.id, c.nonce1);
    c.write(push("mining.set_target", [targetHex(this.target)]));
    c.write(
      push("mining.notify", [j.id, j.version, j.prevHash, j.merkleRoot, j.reserved, j.time, j.bits, clean]),
    );
  }

  private onLine(c: Conn, line: string): void {
    const m = parseEnvelope(line);
    if (m === null || m.method === null) return;
    const first = c.authorized.size === 0;
    c.write(this.answer(c, m));
    if (first && c.authorized.size > 0) this.sendJob(c, true);
  }

  private answer(c: Conn, m: Envelope): string {
    switch (m.method) {
      case "mining.subscribe":
        c.subscribed = true;
        this.nonce1s.push(c.nonce1);
        return reply(m.id, [null, c.nonce1]);
      case "mining.extranonce.subscribe":
        return reply(m.id, true);
      case "mining.authorize": {
        const user = m.params[0];
        if (!c.subscribed) return failure(m.id, 25, "not subscribed");
        if (typeof user !== "string" || user === "") return failure(m.id, 20, "invalid user");
        c.authorized.add(user);
        return reply(m.id, true);
      }
      case "mining.submit": {
        if (this.opts.trustShares !== true) this.submits.push(m.params);
        const verdict = this.judge(c, m.params);
        if (verdict === null) return reply(m.id, true);
        this.rejects.set(verdict, (this.rejects.get(verdict) ?? 0) + 1);
        return failure(m.id, CODE[verdict], verdict);
      }
      default:
        return failure(m.id, 20, "method not found");
    }
  }

  private judge(c: Conn, params: unknown[]): RejectReason | null {
    const [worker, jobId, time, nonce2, solution] = params;
    const isHex = (v: unknown): v is string => typeof v === "string" && /^([0-9a-f]{2})*$/.test(v);
    if (
      typeof worker !== "string" ||
      typeof jobId !== "string" ||
      !isHex(time) ||
      !isHex(nonce2) ||
      !isHex(solution)
    )
      return "malformed";
    if (!c.authorized.has(worker)) return "unauthorized";
    const nonce1 = c.grants.get(jobId);
    const job = this.jobs.get(jobId);
    if (nonce1 === undefined || job === undefined || job.block !== this.block) return "stale";
    if (time !== job.time) return "time";
    if (nonce1.length + nonce2.length !== 64) return "nonce";
    const key = `${job.id}:${nonce2}:${solution}`;
    if (this.seen.has(key)) return "duplicate";
    if (this.opts.trustShares !== true) {
      const header = headerBytes(job, nonce1, nonce2);
      const bytes = hexToBytes(solution);
      // the compactSize prefix of every length the tests use (below 0xfd) is one byte
      if (bytes[0] !== bytes.length - 1 || !verify(this.params, header, bytes.subarray(1))) return "solution";
      if (hashValue(header, bytes) > this.target) return "low difficulty";
    }
    this.seen.add(key);
    this.accepted++;
    const r = this.workers.get(worker) ?? { shares: 0, work: 0 };
    r.shares++;
    r.work += creditOfTarget(this.target);
    this.workers.set(worker, r);
    return null;
  }
}
