/**
 * A real CryptoNote (RandomX) stratum pool for tests and benchmarks, on 127.0.0.1 and an ephemeral
 * port, speaking xmrig's protocol: login (the result carries the first job), job notifications,
 * submit and keepalived. Every share is verified by recomputing RandomX with librandomx, so a proxy
 * that corrupts a blob, a nonce or a target is caught by an authority that shares no code with it.
 *
 * Each connection gets its own blob (a fresh merkle root, as a real pool's per-miner extra nonce
 * gives) and its own target. The pool keeps the last few jobs of a connection: a share for an older
 * job of the current block is still credited, one for a job of an earlier block is "Block expired",
 * one for a job it no longer knows is "Invalid job id".
 *
 * NiceHash: with `nicehash` (the default) the login result advertises the "nicehash" extension, which
 * makes xmrig keep the nonce's top byte (blob[42]) so that a proxy can split a job among miners. The
 * pool itself accepts any nonce; reserving the byte is the proxy's business.
 */
import { randomBytes } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { NONCE_OFFSET, parseNonceHex, testHashingBlob } from "./hashing-blob.ts";
import {
  errorLine,
  LineReader,
  notificationLine,
  parseRpcLine,
  type RpcId,
  resultLine,
} from "./json-lines.ts";
import { ALGO_RX0, type JobParams, Method, parseLogin, parseRpcIdParam, parseSubmit } from "./messages.ts";
import { type RandomXLight, sharedRandomX } from "./randomx.ts";
import { checkProofOfWork, REJECT_MESSAGES, type RejectReason, SHARE_ERROR_CODE } from "./share-check.ts";
import { difficultyOfTarget, parseTarget, type TargetWidth, targetHexForDifficulty } from "./target.ts";

export interface CryptoNoteTestPoolOptions {
  /** starting difficulty of every connection; light-mode RandomX makes tens of hashes per second */
  difficulty?: number;
  /** 4 = xmrig's compact u32 targets (the common case), 8 = full u64 targets */
  targetWidth?: TargetWidth;
  /** a new job on the same block this often, as pools do when transactions change; 0 = never (default) */
  jobIntervalMs?: number;
  /** RandomX key (32 bytes hex); random by default */
  seedHash?: string;
  height?: number;
  /** advertise the "nicehash" extension at login */
  nicehash?: boolean;
  /** after `everyShares` accepted shares of a connection, multiply its difficulty by `factor` */
  vardiff?: { everyShares: number; factor: number } | null;
  /** do not recompute RandomX (benchmarks that measure the proxy, not the pool) */
  trustShares?: boolean;
  /** jobs a connection may still submit to (older ones become "Invalid job id") */
  jobsKept?: number;
  /** defaults to the process-wide shared hasher, so pool and miners hold each seed's cache once */
  hasher?: RandomXLight;
}

export interface WorkerRecord {
  shares: number;
  /** Σ accepted share difficulty (2^64 / target64 of the job each share was for) */
  work: number;
}

export interface LoginRecord {
  login: string;
  pass: string;
  agent: string;
  rigid: string | null;
}

interface PoolJob {
  jobId: string;
  block: number;
  height: number;
  blob: Uint8Array;
  seedHash: Uint8Array;
  targetHex: string;
  target64: bigint;
  difficulty: number;
}

interface PoolConn {
  id: number;
  rpcId: string | null;
  login: string | null;
  difficulty: number;
  /** insertion order is age order: the first entry is the oldest job still kept */
  jobs: Map<string, PoolJob>;
  acceptedCount: number;
}

const DEFAULT_DIFFICULTY = 8;
const DEFAULT_JOBS_KEPT = 4;
/** A Monero mainnet-like height; only reported, never checked. */
const DEFAULT_HEIGHT = 3_200_000;
const EXTENSIONS_BASE = ["algo", "keepalive"];

export class CryptoNoteTestPool {
  readonly workers = new Map<string, WorkerRecord>();
  /** rejected shares (and refused requests) by error message */
  readonly rejects = new Map<string, number>();
  readonly logins: LoginRecord[] = [];
  accepted = 0;
  connectionsOpened = 0;
  keepalives = 0;
  /** logins received while `jobsPaused`, left without an answer */
  unansweredLogins = 0;
  /** while true the pool keeps connections and answers shares but sends no job and answers no login */
  jobsPaused = false;
  readonly targetWidth: TargetWidth;
  private readonly conns = new Map<Socket<PoolConn>, PoolConn>();
  private readonly seen = new Set<string>();
  private readonly hasher: RandomXLight | null;
  private seedHash: Uint8Array;
  private prevId = randomBytes(32);
  private block = 1;
  private height: number;
  private jobSeq = 0;
  private nextConnId = 1;
  private listener: TCPSocketListener<PoolConn> | null = null;
  private jobTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly opts: CryptoNoteTestPoolOptions = {}) {
    this.targetWidth = opts.targetWidth ?? 4;
    this.height = opts.height ?? DEFAULT_HEIGHT;
    this.seedHash = opts.seedHash ? Buffer.from(opts.seedHash, "hex") : randomBytes(32);
    if (this.seedHash.length !== 32) throw new Error("seedHash must be 32 bytes of hex");
    this.hasher = opts.trustShares ? null : (opts.hasher ?? sharedRandomX());
  }

  static async start(opts: CryptoNoteTestPoolOptions = {}): Promise<CryptoNoteTestPool> {
    const pool = new CryptoNoteTestPool(opts);
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

  get currentSeedHash(): string {
    return Buffer.from(this.seedHash).toString("hex");
  }

  get currentHeight(): number {
    return this.height;
  }

  /** Listens (again) on the given port; used to bring a stopped pool back for fail-back tests. */
  listen(port: number): void {
    const every = this.opts.jobIntervalMs ?? 0;
    if (every > 0 && this.jobTimer === null) this.jobTimer = setInterval(() => this.newJob(), every);
    const readers = new WeakMap<Socket<PoolConn>, LineReader>();
    this.listener = Bun.listen<PoolConn>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: (s) => {
          const c: PoolConn = {
            id: this.nextConnId++,
            rpcId: null,
            login: null,
            difficulty: this.opts.difficulty ?? DEFAULT_DIFFICULTY,
            jobs: new Map(),
            acceptedCount: 0,
          };
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

  /** Closes the listener and every connection (a pool outage). */
  stop(): void {
    if (this.jobTimer) clearInterval(this.jobTimer);
    this.jobTimer = null;
    this.listener?.stop(true);
    this.listener = null;
    for (const s of this.conns.keys()) s.end();
    this.conns.clear();
  }

  workerWork(login: string): number {
    return this.workers.get(login)?.work ?? 0;
  }

  totalWork(): number {
    let w = 0;
    for (const r of this.workers.values()) w += r.work;
    return w;
  }

  rejectCount(reason: RejectReason): number {
    return this.rejects.get(REJECT_MESSAGES[reason]) ?? 0;
  }

  /**
   * A new block: a new previous id and height (and, if given, a new RandomX seed, as at an epoch
   * change); shares for every earlier job become "Block expired". Every connection gets a job.
   */
  newBlock(next: { seedHash?: string } = {}): void {
    this.block++;
    this.height++;
    this.prevId = randomBytes(32);
    // Shares for earlier blocks are refused as stale before the duplicate check, so forget them.
    this.seen.clear();
    if (next.seedHash !== undefined) this.seedHash = Buffer.from(next.seedHash, "hex");
    this.pushJobs();
  }

  /** A new job on the same block; earlier jobs of the block stay valid while kept. */
  newJob(): void {
    this.pushJobs();
  }

  /** A new difficulty for every connection, effective with the job sent now. */
  setDifficulty(difficulty: number): void {
    for (const c of this.conns.values()) c.difficulty = difficulty;
    this.pushJobs();
  }

  private pushJobs(): void {
    for (const [s, c] of this.conns) if (c.rpcId !== null) this.sendJob(s, c);
  }

  private makeJob(c: PoolConn): PoolJob {
    const targetHex = targetHexForDifficulty(c.difficulty, this.targetWidth);
    const target64 = parseTarget(targetHex) as bigint;
    const job: PoolJob = {
      jobId: `${c.id}-${(++this.jobSeq).toString(16)}`,
      block: this.block,
      height: this.height,
      blob: testHashingBlob(this.prevId),
      seedHash: this.seedHash,
      targetHex,
      target64,
      // Credit what the target the miner saw stands for, not the nominal difficulty it was made from.
      difficulty: difficultyOfTarget(target64),
    };
    c.jobs.set(job.jobId, job);
    const kept = this.opts.jobsKept ?? DEFAULT_JOBS_KEPT;
    while (c.jobs.size > kept) {
      const oldest = c.jobs.keys().next().value as string;
      c.jobs.delete(oldest);
    }
    return job;
  }

  private jobParams(job: PoolJob): JobParams {
    return {
      blob: Buffer.from(job.blob).toString("hex"),
      job_id: job.jobId,
      target: job.targetHex,
      algo: ALGO_RX0,
      height: job.height,
      seed_hash: Buffer.from(job.seedHash).toString("hex"),
    };
  }

  private sendJob(s: Socket<PoolConn>, c: PoolConn): void {
    if (this.jobsPaused) return;
    s.write(notificationLine(Method.JOB, this.jobParams(this.makeJob(c))));
  }

  private reject(s: Socket<PoolConn>, id: RpcId, reason: RejectReason): void {
    this.refuse(s, id, REJECT_MESSAGES[reason]);
  }

  private refuse(s: Socket<PoolConn>, id: RpcId, message: string): void {
    this.rejects.set(message, (this.rejects.get(message) ?? 0) + 1);
    s.write(errorLine(id, { code: SHARE_ERROR_CODE, message }));
  }

  private onLine(s: Socket<PoolConn>, c: PoolConn, line: string): void {
    const m = parseRpcLine(line);
    if (m === null || m.kind !== "request") {
      s.end();
      return;
    }
    switch (m.method) {
      case Method.LOGIN:
        this.onLogin(s, c, m.id, m.params);
        return;
      case Method.SUBMIT:
        this.onSubmit(s, c, m.id, m.params);
        return;
      case Method.KEEPALIVED:
        if (!this.authenticated(c, m.params)) this.reject(s, m.id, "unauthenticated");
        else {
          this.keepalives++;
          s.write(resultLine(m.id, { status: "KEEPALIVED" }));
        }
        return;
      case Method.GETJOB:
        if (!this.authenticated(c, m.params)) this.reject(s, m.id, "unauthenticated");
        else if (!this.jobsPaused) s.write(resultLine(m.id, this.jobParams(this.makeJob(c))));
        return;
      default:
        s.write(errorLine(m.id, { code: SHARE_ERROR_CODE, message: `Unsupported method: ${m.method}` }));
    }
  }

  private authenticated(c: PoolConn, params: unknown): boolean {
    return c.rpcId !== null && parseRpcIdParam(params) === c.rpcId;
  }

  private onLogin(s: Socket<PoolConn>, c: PoolConn, id: RpcId, params: unknown): void {
    const login = parseLogin(params);
    if (typeof login === "string") {
      this.refuse(s, id, login);
      return;
    }
    // A stuck pool: the login result must carry a job, so it never comes.
    if (this.jobsPaused) {
      this.unansweredLogins++;
      return;
    }
    this.logins.push({ login: login.login, pass: login.pass, agent: login.agent, rigid: login.rigid });
    c.login = login.login;
    c.rpcId = randomBytes(8).toString("hex");
    const extensions = this.opts.nicehash === false ? EXTENSIONS_BASE : ["algo", "nicehash", "keepalive"];
    s.write(
      resultLine(id, {
        id: c.rpcId,
        job: this.jobParams(this.makeJob(c)),
        extensions,
        status: "OK",
      }),
    );
  }

  private onSubmit(s: Socket<PoolConn>, c: PoolConn, id: RpcId, params: unknown): void {
    const verdict = this.judge(c, params);
    if (typeof verdict === "string") {
      this.reject(s, id, verdict);
      return;
    }
    s.write(resultLine(id, { status: "OK" }));
    this.afterAccept(s, c);
  }

  /** Cheap checks first (identity, job, duplicate), then one RandomX hash. */
  private judge(c: PoolConn, params: unknown): PoolJob | RejectReason {
    const sub = parseSubmit(params);
    if (typeof sub === "string") return c.rpcId === null ? "unauthenticated" : "malformed";
    if (c.rpcId === null || sub.rpcId !== c.rpcId || c.login === null) return "unauthenticated";
    const job = c.jobs.get(sub.jobId);
    if (job === undefined) return "unknown-job";
    if (job.block !== this.block) return "stale-job";
    const nonce = parseNonceHex(sub.nonce);
    if (nonce === null || job.blob.length < NONCE_OFFSET + 4) return "malformed";
    const key = `${job.jobId}:${sub.nonce}`;
    if (this.seen.has(key)) return "duplicate";
    const reason = checkProofOfWork(job, nonce, Buffer.from(sub.result, "hex"), this.hasher);
    if (reason !== null) return reason;
    this.seen.add(key);
    this.accepted++;
    const rec = this.workers.get(c.login) ?? { shares: 0, work: 0 };
    rec.shares++;
    rec.work += job.difficulty;
    this.workers.set(c.login, rec);
    return job;
  }

  private afterAccept(s: Socket<PoolConn>, c: PoolConn): void {
    c.acceptedCount++;
    const v = this.opts.vardiff;
    if (v && c.acceptedCount % v.everyShares === 0) {
      // CryptoNote has no set_difficulty: a new target arrives with a new job.
      c.difficulty *= v.factor;
      this.sendJob(s, c);
    }
  }
}
