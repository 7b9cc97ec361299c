/**
 * A real Ethereum (ethash) stratum pool for tests, on 127.0.0.1 and an ephemeral port. One port speaks both
 * dialects, told apart by the first message: eth_submitLogin → ETHPROXY, mining.subscribe with
 * "EthereumStratum/1.0.0" → NiceHash. Jobs are random header hashes of one epoch; every share is recomputed
 * with @ethereumjs/ethash (share-check.ts) and rejected when stale, duplicate, below target or (ETHPROXY) with a
 * mix digest that disagrees. Accepted work is credited per worker in diff-1 shares (difficulty.ts).
 *
 * The API mirrors the Bitcoin-family pool in test/support/stratum/test-pool.ts.
 */
import { randomInt } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import { boundaryForDifficulty, nicehashTarget, workOfBoundary } from "./difficulty.ts";
import { type EthJob, makeJob } from "./eth-job.ts";
import { EPOCH_LENGTH, type LightCache, lightCache, seedHashOf } from "./ethash.ts";
import { bigIntToHex } from "./hex.ts";
import { type Envelope, LineReader, parseEnvelope } from "./json-lines.ts";
import { type Dialect, EthproxyMethod, NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";
import type { Grant, PoolConn, PoolCore, Share } from "./pool-conn.ts";
import { ethproxyError, onEthproxyMessage, pushWork } from "./pool-ethproxy.ts";
import { nicehashError, notification, onNicehashMessage, sendNotify } from "./pool-nicehash.ts";
import type { RejectReason } from "./rejects.ts";
import { checkShare } from "./share-check.ts";

export interface TestEthPoolOptions {
  /**
   * starting difficulty of every connection, in diff-1 shares (≈2^32 hashes). The default 2^-32 makes almost
   * every hash a share, the cheapest a test can get at ≈100 ms per light hash; raise it where a wrong nonce
   * must be caught by the target (EthereumStratum/1.0.0 submits no mix digest).
   */
  difficulty?: number;
  /** EthereumStratum/1.0.0 extranonce prefix length, 1–3 bytes */
  extranonceBytes?: number;
  /** ethash epoch of every job; the light cache of each epoch costs seconds to build */
  epoch?: number;
  /** block number of the first job, within the epoch */
  firstBlock?: number;
  /** a new job (same block) this often, as pools do when the pending block changes; 0 = never */
  jobIntervalMs?: number;
  /**
   * benchmarks of the proxy, not the pool: build no light cache and accept every share that is not stale or
   * a duplicate (the Bitcoin-family pool's trustShares). Tests keep the default, which hashes every share.
   */
  trustShares?: boolean;
}

export interface WorkerRecord {
  shares: number;
  /** Σ credited work of accepted shares, in diff-1 shares */
  work: number;
}

const DEFAULT_DIFFICULTY = 2 ** -32;

export class TestEthPool implements PoolCore {
  readonly workers = new Map<string, WorkerRecord>();
  readonly rejects = new Map<RejectReason, number>();
  /** every eth_submitHashrate rate received, per worker, in order */
  readonly hashrates = new Map<string, bigint[]>();
  /** the dialect of every connection, in the order they identified themselves */
  readonly dialects: Dialect[] = [];
  /** the agent of every EthereumStratum/1.0.0 mining.subscribe */
  readonly agents: string[] = [];
  accepted = 0;
  /** accepted shares by the dialect of the connection that carried them */
  readonly acceptedByDialect = new Map<Dialect, number>();
  connectionsOpened = 0;
  /** while true the pool keeps connections but sends no new work (a stuck pool) */
  jobsPaused = false;
  readonly epoch: number;
  readonly extranonceBytes: number;
  private difficulty: number;
  private readonly conns = new Map<Socket<PoolConn>, PoolConn>();
  private readonly jobs = new Map<string, EthJob>();
  private readonly jobsByHeader = new Map<string, EthJob>();
  /** header:nonce of every accepted share of the current block */
  private readonly seen = new Set<string>();
  private blockNumber: number;
  private jobSeq = 0;
  private current: EthJob;
  private nextConnId = 1;
  private nextExtranonce: number;
  private listener: TCPSocketListener<PoolConn> | null = null;
  private jobTimer: ReturnType<typeof setInterval> | null = null;

  private constructor(
    private readonly cache: LightCache,
    private readonly opts: TestEthPoolOptions,
  ) {
    this.epoch = cache.epoch;
    this.extranonceBytes = opts.extranonceBytes ?? 2;
    if (!(this.extranonceBytes >= 1 && this.extranonceBytes <= 3))
      throw new Error("extranonceBytes must be 1, 2 or 3");
    this.difficulty = opts.difficulty ?? DEFAULT_DIFFICULTY;
    this.blockNumber = opts.firstBlock ?? this.epoch * EPOCH_LENGTH + 1000;
    if (Math.floor(this.blockNumber / EPOCH_LENGTH) !== this.epoch)
      throw new Error(`firstBlock ${this.blockNumber} is not in epoch ${this.epoch}`);
    // Prefixes are handed out in sequence from a random start: unique per connection, unlike random draws.
    this.nextExtranonce = randomInt(256 ** this.extranonceBytes);
    this.current = this.makeJob();
  }

  /** Builds (or reuses) the epoch's light cache first, so that no share ever waits for it. */
  static async start(opts: TestEthPoolOptions = {}): Promise<TestEthPool> {
    const epoch = opts.epoch ?? 0;
    const cache = opts.trustShares ? unhashedCache(epoch) : await lightCache(epoch);
    const pool = new TestEthPool(cache, opts);
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
    const readers = new WeakMap<Socket<PoolConn>, LineReader>();
    this.listener = Bun.listen<PoolConn>({
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

  /** The job new work is cut from (its header hash is what ETHPROXY shares name). */
  get currentJobInfo(): Readonly<EthJob> {
    return this.current;
  }

  /** A new job on the same block: earlier jobs stay valid (clean=false). */
  newJob(): void {
    this.current = this.makeJob();
    this.broadcast(false);
  }

  /** A new block: every earlier job becomes stale and every connection gets a clean job. */
  newBlock(): void {
    this.blockNumber++;
    if (Math.floor(this.blockNumber / EPOCH_LENGTH) !== this.epoch)
      this.blockNumber = this.epoch * EPOCH_LENGTH;
    this.jobs.clear();
    this.jobsByHeader.clear();
    this.seen.clear();
    for (const c of this.conns.values()) c.grants.clear();
    this.current = this.makeJob();
    this.broadcast(true);
  }

  /** Every connection's difficulty from the next job on (ES1: mining.set_difficulty; ETHPROXY: boundary). */
  setDifficulty(d: number): void {
    this.difficulty = d;
    for (const c of this.conns.values()) c.difficulty = d;
    this.newJob();
  }

  /** Gives every extranonce-subscribed ES1 connection a new prefix, effective from the next job. */
  rotateExtranonce(): void {
    for (const c of this.conns.values()) {
      if (c.dialect !== "nicehash" || !c.extranonceSubscribed) continue;
      c.extranonce = this.allocateExtranonce();
      c.write(notification(NicehashMethod.SET_EXTRANONCE, [c.extranonce]));
    }
    this.newJob();
  }

  // PoolCore, for the dialect handlers.

  currentJob(): EthJob {
    return this.current;
  }

  jobById(id: string): EthJob | undefined {
    return this.jobs.get(id);
  }

  jobByHeader(headerHex: string): EthJob | undefined {
    return this.jobsByHeader.get(headerHex);
  }

  grant(c: PoolConn, job: EthJob): Grant {
    const ethproxy = c.dialect === "ethproxy";
    const target = ethproxy ? boundaryForDifficulty(c.difficulty) : nicehashTarget(c.difficulty);
    const g: Grant = {
      job,
      target,
      work: ethproxy ? workOfBoundary(target) : c.difficulty,
      extranonce: ethproxy ? "" : c.extranonce,
      dialect: ethproxy ? "ethproxy" : "nicehash",
    };
    c.grants.set(job.id, g);
    c.lastGrant = g;
    return g;
  }

  liveGrant(c: PoolConn, job: EthJob | undefined): Grant | undefined {
    if (job === undefined || this.jobs.get(job.id) !== job) return undefined;
    return c.grants.get(job.id);
  }

  judge(s: Share): RejectReason | null {
    const key = `${s.grant.job.headerHex}:${bigIntToHex(s.nonce, 8)}`;
    if (this.seen.has(key)) return this.reject("duplicate");
    if (!this.opts.trustShares) {
      const verdict = checkShare(this.cache, s.grant.job.headerHash, s.nonce, s.grant.target, s.mix);
      if (verdict !== "ok") return this.reject(verdict);
    }
    this.seen.add(key);
    this.accepted++;
    this.acceptedByDialect.set(s.grant.dialect, (this.acceptedByDialect.get(s.grant.dialect) ?? 0) + 1);
    const rec = this.workers.get(s.worker) ?? { shares: 0, work: 0 };
    rec.shares++;
    rec.work += s.grant.work;
    this.workers.set(s.worker, rec);
    return null;
  }

  reject(reason: RejectReason): RejectReason {
    this.rejects.set(reason, (this.rejects.get(reason) ?? 0) + 1);
    return reason;
  }

  recordHashrate(worker: string, rate: bigint): void {
    const list = this.hashrates.get(worker) ?? [];
    list.push(rate);
    this.hashrates.set(worker, list);
  }

  private newConn(write: (line: string) => void): PoolConn {
    return {
      id: this.nextConnId++,
      write,
      dialect: null,
      difficulty: this.difficulty,
      grants: new Map(),
      lastGrant: null,
      login: null,
      loginWorker: null,
      subscribed: false,
      extranonceSubscribed: false,
      authorized: new Set(),
      extranonce: this.allocateExtranonce(),
      sentDifficulty: null,
    };
  }

  private allocateExtranonce(): string {
    const n = this.nextExtranonce;
    this.nextExtranonce = (n + 1) % 256 ** this.extranonceBytes;
    return n.toString(16).padStart(this.extranonceBytes * 2, "0");
  }

  private makeJob(): EthJob {
    const job = makeJob((++this.jobSeq).toString(16), this.cache.seedHash, this.blockNumber);
    this.jobs.set(job.id, job);
    this.jobsByHeader.set(job.headerHex, job);
    return job;
  }

  private broadcast(clean: boolean): void {
    for (const c of this.conns.values()) {
      if (c.dialect === "ethproxy") pushWork(c, this);
      else if (c.dialect === "nicehash") sendNotify(c, this, clean);
    }
  }

  private onLine(s: Socket<PoolConn>, c: PoolConn, line: string): void {
    const m = parseEnvelope(line);
    if (m === null) {
      s.end();
      return;
    }
    if (c.dialect === null) c.dialect = this.detect(c, m);
    if (c.dialect === "ethproxy") onEthproxyMessage(c, this, m);
    else if (c.dialect === "nicehash") onNicehashMessage(c, this, m);
    else if (m.method !== null) {
      // Miners probe dialects in turn (EthereumStratum/2.0.0, 1.0.0, ETHPROXY): refuse and let them try the next.
      const refuse = m.method.startsWith("eth_") ? ethproxyError : nicehashError;
      c.write(refuse(m.id, 20, "Unsupported protocol"));
    }
  }

  private detect(c: PoolConn, m: Envelope): Dialect | null {
    let dialect: Dialect | null = null;
    if (m.method === EthproxyMethod.SUBMIT_LOGIN) dialect = "ethproxy";
    else if (m.method === NicehashMethod.SUBSCRIBE && m.params[1] === NICEHASH_PROTOCOL) {
      dialect = "nicehash";
      this.agents.push(typeof m.params[0] === "string" ? m.params[0] : "");
    }
    if (dialect !== null) {
      this.dialects.push(dialect);
      c.dialect = dialect;
    }
    return dialect;
  }
}

/** An epoch's seed without its light cache (seconds to build), for a pool that never hashes. */
function unhashedCache(epoch: number): LightCache {
  const refuse = (): never => {
    throw new Error("a pool that trusts shares does not hash");
  };
  return { epoch, seedHash: seedHashOf(epoch), hashimoto: refuse, cacheHash: refuse };
}
