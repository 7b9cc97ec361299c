/**
 * A real stratum pool for tests and benchmarks, on 127.0.0.1 and an ephemeral port. It builds real
 * jobs, verifies every share by hashing it against the target the connection was given, rejects
 * stale (21), duplicate (22) and low-difficulty (23) shares, and records accepted work per worker.
 * Shares are hashed by share-check.ts (@noble/hashes), never by the engine's own pow.ts, so a proxy
 * that builds the coinbase or header wrongly sees its shares rejected here.
 */
import { randomBytes } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { ErrorCode, StratumError } from "../../../appliance/engine/stratum/bitcoin/errors.ts";
import {
  parseAuthorize,
  parseConfigure,
  parseSubmit,
} from "../../../appliance/engine/stratum/bitcoin/messages.ts";
import { Method } from "../../../appliance/engine/stratum/bitcoin/methods.ts";
import { LineSplitter, lineSink } from "../../../appliance/engine/stratum/line-codec.ts";
import {
  errorLine,
  parsePositional,
  requestLine,
  resultLine,
} from "../../../appliance/engine/stratum/message.ts";
import { algorithmFor, rolledVersion, type ShareAlgorithm, verifyShare } from "./share-check.ts";
import { buildJob, type TestJob } from "./test-job.ts";

export interface TestPoolOptions {
  category?: "sha256" | "scrypt";
  extranonce1Size?: number;
  extranonce2Size?: number;
  versionRolling?: boolean;
  /** starting difficulty of every connection */
  difficulty?: number;
  /** vardiff: after `everyShares` accepted shares of a connection multiply its difficulty by `factor` */
  vardiff?: { everyShares: number; factor: number } | null;
  merkleBranches?: number;
  tls?: { cert: string; key: string };
  /** do not verify hashes (benchmarks that measure the proxy, not the pool) */
  trustShares?: boolean;
  /** a new (not clean) job this often, as real pools do when transactions change; 0 = never */
  jobIntervalMs?: number;
  /** called for every accepted share, e.g. to see which extranonce2 bytes a proxy sent up */
  onAccepted?: (share: AcceptedShare) => void;
  /**
   * refuse every n-th share that would be accepted as low difficulty (23), as a pool whose target
   * the share missed: 100 refuses 1 %, exactly and without randomness (benchmarks of the fee)
   */
  rejectEvery?: number;
  /** workers this pool does not know: their mining.authorize is answered 24, Unauthorized */
  unknownWorkers?: string[];
}

export interface AcceptedShare {
  worker: string;
  jobId: string;
  /** the connection's extranonce1 and the share's extranonce2, hex */
  extranonce1: string;
  extranonce2: string;
  difficulty: number;
}

export interface WorkerRecord {
  shares: number;
  /** Σ accepted share difficulty */
  work: number;
}

interface PoolConn {
  id: number;
  extranonce1: string;
  difficulty: number;
  /** difficulty each job was sent with to this connection */
  jobDifficulty: Map<string, number>;
  authorized: Set<string>;
  versionMask: number;
  extranonceSubscribed: boolean;
  acceptedCount: number;
  subscribed: boolean;
}

const POOL_MASK = 0x1fffe000;

export class TestPool {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<number, number>();
  /** shares that passed the checks before `rejectEvery` (its counter) */
  private judged = 0;
  /** the agent of every mining.subscribe received */
  readonly agents: string[] = [];
  accepted = 0;
  /** shares whose hash this pool computed and found above the target (also counted in rejects[23]) */
  lowDifficultyRejects = 0;
  connectionsOpened = 0;
  private readonly conns = new Map<Socket<PoolConn>, PoolConn>();
  private readonly jobs = new Map<string, TestJob>();
  private readonly seen = new Set<string>();
  private block = 1;
  private prevHash = randomBytes(32).toString("hex");
  private jobSeq = 0;
  private current: TestJob;
  private nextConnId = 1;
  private listener: TCPSocketListener<PoolConn> | null = null;
  private jobTimer: ReturnType<typeof setInterval> | null = null;
  /** while true the pool keeps connections but sends no jobs (a stuck pool) */
  jobsPaused = false;
  readonly category: "sha256" | "scrypt";
  private readonly algorithm: ShareAlgorithm;
  readonly en1Size: number;
  readonly en2Size: number;
  readonly versionRolling: boolean;

  constructor(private readonly opts: TestPoolOptions = {}) {
    this.category = opts.category ?? "sha256";
    this.algorithm = algorithmFor(this.category);
    this.en1Size = opts.extranonce1Size ?? 4;
    this.en2Size = opts.extranonce2Size ?? 4;
    this.versionRolling = opts.versionRolling ?? true;
    this.current = this.makeJob();
  }

  static async start(opts: TestPoolOptions = {}): Promise<TestPool> {
    const pool = new TestPool(opts);
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

  /** Listens (again) on the given port; used to bring a stopped pool back for fail-back tests. */
  listen(port: number): void {
    const every = this.opts.jobIntervalMs ?? 1000;
    if (every > 0 && this.jobTimer === null) this.jobTimer = setInterval(() => this.newJob(), every);
    const splitters = new WeakMap<Socket<PoolConn>, LineSplitter>();
    this.listener = Bun.listen<PoolConn>({
      hostname: "127.0.0.1",
      port,
      ...(this.opts.tls ? { tls: this.opts.tls } : {}),
      socket: {
        open: (s) => {
          const c: PoolConn = {
            id: this.nextConnId++,
            extranonce1: randomBytes(this.en1Size).toString("hex"),
            difficulty: this.opts.difficulty ?? 1e-7,
            jobDifficulty: new Map(),
            authorized: new Set(),
            versionMask: 0,
            extranonceSubscribed: false,
            acceptedCount: 0,
            subscribed: false,
          };
          s.data = c;
          this.conns.set(s, c);
          this.connectionsOpened++;
          splitters.set(
            s,
            new LineSplitter(
              64 * 1024,
              lineSink(
                (line) => this.onLine(s, c, line),
                () => s.end(),
              ),
            ),
          );
        },
        data: (s, chunk) => splitters.get(s)?.push(chunk),
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

  workerWork(name: string): number {
    return this.workers.get(name)?.work ?? 0;
  }

  totalWork(): number {
    let w = 0;
    for (const r of this.workers.values()) w += r.work;
    return w;
  }

  /** A new block: all earlier jobs become stale; every connection gets a clean job. */
  newBlock(): void {
    this.block++;
    this.prevHash = randomBytes(32).toString("hex");
    this.jobs.clear();
    this.current = this.makeJob();
    for (const [s, c] of this.conns) if (c.subscribed) this.sendJob(s, c, true);
  }

  /** A new job on the same block (clean=false), as pools do when transactions change. */
  newJob(): void {
    this.current = this.makeJob();
    for (const [s, c] of this.conns) if (c.subscribed) this.sendJob(s, c, false);
  }

  sendReconnect(host: string, port: number, wait = 0): void {
    for (const s of this.conns.keys()) s.write(requestLine(null, Method.RECONNECT, [host, port, wait]));
  }

  /** Gives every extranonce-subscribed connection a fresh extranonce1 (effective at the next job). */
  rotateExtranonce(): void {
    for (const [s, c] of this.conns) {
      if (!c.extranonceSubscribed) continue;
      c.extranonce1 = randomBytes(this.en1Size).toString("hex");
      s.write(requestLine(null, Method.SET_EXTRANONCE, [c.extranonce1, this.en2Size]));
      this.sendJob(s, c, true);
    }
  }

  private makeJob(): TestJob {
    const id = (++this.jobSeq).toString(16);
    const job = buildJob(
      id,
      this.block,
      this.prevHash,
      this.en1Size + this.en2Size,
      this.opts.merkleBranches ?? 2,
    );
    this.jobs.set(id, job);
    return job;
  }

  private sendJob(s: Socket<PoolConn>, c: PoolConn, clean: boolean): void {
    if (this.jobsPaused) return;
    const j = this.current;
    c.jobDifficulty.set(j.jobId, c.difficulty);
    s.write(
      requestLine(null, Method.NOTIFY, [
        j.jobId,
        j.prevHash,
        j.coinb1,
        j.coinb2,
        j.merkleBranch,
        j.version,
        j.nbits,
        j.ntime,
        clean,
      ]),
    );
  }

  private reject(code: number): StratumError {
    this.rejects.set(code, (this.rejects.get(code) ?? 0) + 1);
    const msg: Record<number, string> = {
      21: "Stale",
      22: "Duplicate",
      23: "Low difficulty",
      24: "Unauthorized",
    };
    return new StratumError(code, msg[code] ?? "Invalid");
  }

  private onLine(s: Socket<PoolConn>, c: PoolConn, line: string): void {
    const m = parsePositional(line);
    if (m === null || m.kind !== "request") {
      s.end();
      return;
    }
    switch (m.method) {
      case Method.CONFIGURE: {
        const cfg = parseConfigure(m.params);
        if (cfg instanceof StratumError) return void s.write(errorLine(m.id, cfg));
        if (cfg.versionRollingMask !== null && this.versionRolling) {
          c.versionMask = (cfg.versionRollingMask & POOL_MASK) >>> 0;
          s.write(
            resultLine(m.id, {
              "version-rolling": true,
              "version-rolling.mask": c.versionMask.toString(16).padStart(8, "0"),
            }),
          );
        } else s.write(resultLine(m.id, { "version-rolling": false }));
        return;
      }
      case Method.SUBSCRIBE:
        c.subscribed = true;
        this.agents.push(typeof m.params[0] === "string" ? m.params[0] : "");
        s.write(
          resultLine(m.id, [
            [
              [Method.SET_DIFFICULTY, `d${c.id}`],
              [Method.NOTIFY, `n${c.id}`],
            ],
            c.extranonce1,
            this.en2Size,
          ]),
        );
        return;
      case Method.EXTRANONCE_SUBSCRIBE:
        c.extranonceSubscribed = true;
        s.write(resultLine(m.id, true));
        return;
      case Method.AUTHORIZE: {
        const a = parseAuthorize(m.params);
        if (a instanceof StratumError) return void s.write(errorLine(m.id, a));
        if (this.opts.unknownWorkers?.includes(a.user))
          return void s.write(errorLine(m.id, new StratumError(ErrorCode.UNAUTHORIZED, "Unauthorized")));
        const first = c.authorized.size === 0;
        c.authorized.add(a.user);
        s.write(resultLine(m.id, true));
        if (first) {
          s.write(requestLine(null, Method.SET_DIFFICULTY, [c.difficulty]));
          this.sendJob(s, c, true);
        }
        return;
      }
      case Method.PING:
        s.write(resultLine(m.id, "pong"));
        return;
      case Method.SUGGEST_DIFFICULTY:
        s.write(resultLine(m.id, true));
        return;
      case Method.SUBMIT: {
        const verdict = this.judge(c, m.params);
        if (verdict instanceof StratumError) s.write(errorLine(m.id, verdict));
        else {
          s.write(resultLine(m.id, true));
          this.afterAccept(s, c);
        }
        return;
      }
      default:
        s.write(errorLine(m.id, new StratumError(20, "Method not found")));
    }
  }

  private judge(c: PoolConn, params: unknown[]): true | StratumError {
    const sub = parseSubmit(params);
    if (sub instanceof StratumError) return this.reject(ErrorCode.OTHER);
    if (!c.authorized.has(sub.worker)) return this.reject(ErrorCode.UNAUTHORIZED);
    const job = this.jobs.get(sub.jobId);
    const difficulty = c.jobDifficulty.get(sub.jobId);
    if (job === undefined || difficulty === undefined || job.block !== this.block)
      return this.reject(ErrorCode.STALE);
    if (sub.extranonce2.length !== this.en2Size * 2) return this.reject(ErrorCode.OTHER);
    if (sub.versionBits !== null) {
      const bits = Number.parseInt(sub.versionBits, 16) >>> 0;
      if (c.versionMask === 0 || (bits & ~c.versionMask) >>> 0 !== 0) return this.reject(ErrorCode.OTHER);
    }
    const key = `${c.extranonce1}:${sub.jobId}:${sub.extranonce2}:${sub.ntime}:${sub.nonce}:${sub.versionBits}`;
    if (this.seen.has(key)) return this.reject(ErrorCode.DUPLICATE);
    const every = this.opts.rejectEvery ?? 0;
    if (every > 0 && ++this.judged % every === 0) return this.reject(ErrorCode.LOW_DIFFICULTY);
    if (!this.opts.trustShares) {
      const verdict = verifyShare(
        {
          coinb1: job.coinb1,
          extranonce1: c.extranonce1,
          extranonce2: sub.extranonce2,
          coinb2: job.coinb2,
          merkleBranch: job.merkleBranch,
          prevHash: job.prevHash,
          version: rolledVersion(job.version, sub.versionBits, c.versionMask),
          nbits: job.nbits,
          ntime: sub.ntime,
          nonce: sub.nonce,
        },
        difficulty,
        this.algorithm,
      );
      if (!verdict.meetsTarget) {
        this.lowDifficultyRejects++;
        return this.reject(ErrorCode.LOW_DIFFICULTY);
      }
    }
    this.seen.add(key);
    this.accepted++;
    const rec = this.workers.get(sub.worker) ?? { shares: 0, work: 0 };
    rec.shares++;
    rec.work += difficulty;
    this.workers.set(sub.worker, rec);
    this.opts.onAccepted?.({
      worker: sub.worker,
      jobId: sub.jobId,
      extranonce1: c.extranonce1,
      extranonce2: sub.extranonce2,
      difficulty,
    });
    return true;
  }

  private afterAccept(s: Socket<PoolConn>, c: PoolConn): void {
    c.acceptedCount++;
    const v = this.opts.vardiff;
    if (v && c.acceptedCount % v.everyShares === 0) {
      c.difficulty *= v.factor;
      s.write(requestLine(null, Method.SET_DIFFICULTY, [c.difficulty]));
      // A fresh job id: shares for the jobs sent before keep the difficulty they were sent with.
      this.current = this.makeJob();
      this.sendJob(s, c, false);
    }
  }
}
