/**
 * A KawPow stratum pool for tests on 127.0.0.1 and an ephemeral port, speaking as RVN pools do
 * (protocols.md §G): subscribe → [null, "<nonce prefix>"], authorize, mining.set_target then
 * mining.notify [jobId, headerHash, seedHash, target, clean, height, nbits], submit [worker, jobId,
 * 0x nonce, 0x header hash, 0x mix hash].
 *
 * STRUCTURE ONLY: real KawPow (ProgPoW over a DAG) is too costly for a test, so every share is
 * checked for structure — a job id this connection was issued and still current, the header hash
 * of that job, a 0x nonce of 8 bytes that begins with the prefix the job was sent under and is new
 * for the job, a worker authorized on the connection — and then against the test-only stand-in
 * (stand-in-pow.ts): the mix hash must be the stand-in's and its final hash must meet the target.
 * Accepted work is credited per worker in diff-1 units (chain.ts).
 */
import type { Socket, TCPSocketListener } from "bun";
import { type Envelope, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { creditOfTarget, EPOCH_LENGTH, seedHashOfHeight, targetHex, targetOfDifficulty } from "./chain.ts";
import { standInHash } from "./stand-in-pow.ts";

export interface TestKawPoolOptions {
  /** share difficulty of every connection in diff-1 units; the default makes most hashes a share */
  difficulty?: number;
  /** nonce prefix bytes per connection, 0–2 (default 1) */
  extranonceBytes?: number;
  /** block height of the first job: its epoch gives the seed hash */
  height?: number;
  /**
   * a new job of the same block this often (default 1 s, as pools refresh work; the engine leaves a
   * session that sends no job for jobTimeoutMs); 0 = never
   */
  jobIntervalMs?: number;
  /** every job's header hash (a real block's, say); random when absent */
  header?: string;
  /** the nonce prefix of every connection, instead of one per connection */
  extranonce?: string;
  /**
   * benchmarks only: skip the stand-in hash (structure is still checked), so a load generator that
   * does not hash can be measured against the proxy instead of against this pool
   */
  trustShares?: boolean;
}

export type RejectReason =
  | "malformed"
  | "unauthorized"
  | "stale"
  | "header"
  | "prefix"
  | "duplicate"
  | "mix"
  | "low difficulty";

interface Job {
  id: string;
  header: string;
  block: number;
}

interface Conn {
  id: number;
  extranonce: string;
  subscribed: boolean;
  authorized: Set<string>;
  /** job id → the prefix it was sent under */
  grants: Map<string, string>;
  write(line: string): void;
}

export interface WorkerRecord {
  shares: number;
  work: number;
}

const DEFAULT_DIFFICULTY = 2 ** -28;
const DEFAULT_JOB_INTERVAL_MS = 1_000;
/** Counted across every pool of the process, so two pools never hand out the same prefix by chance. */
let connectionsEver = 0;
const randomHeader = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
const reply = (id: unknown, result: unknown): string => `${JSON.stringify({ id, result, error: null })}\n`;
const failure = (id: unknown, code: number, message: string): string =>
  `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;
const push = (method: string, params: unknown[]): string =>
  `${JSON.stringify({ id: null, method, params })}\n`;
const CODE: Record<RejectReason, number> = {
  malformed: 20,
  unauthorized: 24,
  stale: 21,
  header: 20,
  prefix: 20,
  duplicate: 22,
  mix: 20,
  "low difficulty": 23,
};

export class TestKawPool {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<RejectReason, number>();
  /** the nonce prefix of every connection, in order */
  readonly extranonces: string[] = [];
  /** the params of every mining.submit received, as they came */
  readonly submits: unknown[][] = [];
  accepted = 0;
  connectionsOpened = 0;
  readonly height: number;
  readonly seed: string;
  readonly target: bigint;
  private readonly conns = new Map<Socket<Conn>, Conn>();
  private readonly readers = new Map<Socket<Conn>, LineReader>();
  private readonly jobs = new Map<string, Job>();
  private readonly seen = new Set<string>();
  private current: Job;
  private block = 1;
  private jobSeq = 0;
  private nextConn = 1;
  private listener: TCPSocketListener<Conn> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  private constructor(private readonly opts: TestKawPoolOptions) {
    this.height = opts.height ?? 3_000_000;
    this.seed = seedHashOfHeight(this.height);
    this.target = targetOfDifficulty(opts.difficulty ?? DEFAULT_DIFFICULTY);
    this.current = this.makeJob();
  }

  static async start(opts: TestKawPoolOptions = {}): Promise<TestKawPool> {
    const p = new TestKawPool(opts);
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

  get epoch(): number {
    return Math.floor(this.height / EPOCH_LENGTH);
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
    const header = this.opts.header ?? randomHeader();
    const job = { id: (++this.jobSeq).toString(16), header, block: this.block };
    this.jobs.set(job.id, job);
    return job;
  }

  private listen(): void {
    const bytes = this.opts.extranonceBytes ?? 1;
    this.listener = Bun.listen<Conn>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open: (s) => {
          this.connectionsOpened++;
          const id = this.nextConn++;
          const n = ++connectionsEver * 37;
          const fresh =
            bytes === 0
              ? ""
              : n
                  .toString(16)
                  .padStart(bytes * 2, "0")
                  .slice(-bytes * 2);
          const extranonce = this.opts.extranonce ?? fresh;
          const conn: Conn = {
            id,
            extranonce,
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
    const t = targetHex(this.target);
    const j = this.current;
    c.grants.set(j.id, c.extranonce);
    c.write(push("mining.set_target", [t]));
    c.write(push("mining.notify", [j.id, j.header, this.seed, t, clean, this.height + j.block, "1b00f968"]));
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
        this.extranonces.push(c.extranonce);
        return reply(m.id, [null, c.extranonce]);
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
        this.submits.push(m.params);
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
    const [worker, jobId, nonce, header, mix] = params;
    const hex = (v: unknown, n: number): string | null =>
      typeof v === "string" && new RegExp(`^0x[0-9a-f]{${n}}$`).test(v) ? v.slice(2) : null;
    const n = hex(nonce, 16);
    const h = hex(header, 64);
    const x = hex(mix, 64);
    if (typeof worker !== "string" || typeof jobId !== "string" || n === null || h === null || x === null)
      return "malformed";
    if (!c.authorized.has(worker)) return "unauthorized";
    const prefix = c.grants.get(jobId);
    const job = this.jobs.get(jobId);
    if (prefix === undefined || job === undefined || job.block !== this.block) return "stale";
    if (h !== job.header) return "header";
    if (!n.startsWith(prefix)) return "prefix";
    const key = `${job.id}:${n}`;
    if (this.seen.has(key)) return "duplicate";
    if (this.opts.trustShares !== true) {
      const pow = standInHash(h, n);
      if (pow.mix !== x) return "mix";
      if (pow.final > this.target) return "low difficulty";
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
