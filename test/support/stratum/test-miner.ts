/**
 * A miner that really hashes (sha256d or scrypt) at the low difficulty a test pool hands out, with or
 * without mining.extranonce.subscribe and version rolling. It stops by itself after `maxShares`
 * answered shares or `maxMs`, whichever comes first. It hashes with share-check.ts (@noble/hashes),
 * not with the engine's pow.ts, and can also send hashes that miss the target on purpose.
 */
import type { Socket } from "bun";
import { StratumError } from "../../../appliance/engine/stratum/bitcoin/errors.ts";
import {
  type Notify,
  parseDifficulty,
  parseNotify,
  parseSetExtranonce,
  parseSubscribeResult,
  parseVersionMask,
} from "../../../appliance/engine/stratum/bitcoin/messages.ts";
import { Method } from "../../../appliance/engine/stratum/bitcoin/methods.ts";
import { LineSplitter, lineSink } from "../../../appliance/engine/stratum/line-codec.ts";
import { parsePositional, requestLine } from "../../../appliance/engine/stratum/message.ts";
import {
  algorithmFor,
  headerOf,
  NonceScanner,
  rolledVersion,
  type ShareAlgorithm,
  targetFor,
} from "./share-check.ts";

/**
 * A rate for tests that need a miner's shares spread over time, at the pools' 2e-8 difficulty about
 * 230 shares a second: unpaced, 60 shares took 10 ms on a fast box, over before a fee session could
 * open, and the fee pool saw none.
 */
export const PACED_HASHES_PER_SECOND = 20_000;

export interface TestMinerOptions {
  host?: string;
  port: number;
  user: string;
  password?: string;
  category?: "sha256" | "scrypt";
  agent?: string;
  extranonceSubscribe?: boolean;
  versionRolling?: boolean;
  tls?: boolean;
  maxShares?: number;
  maxMs?: number;
  /** hashes between yields to the event loop */
  batch?: number;
  /**
   * Hash no faster than this (a real device's fixed hashrate), so that its share rate falls as the
   * difficulty rises; unset: as fast as the CPU allows.
   */
  hashesPerSecond?: number;
  /**
   * With `hashesPerSecond`: the first hash waits this long after the first job. A fleet started
   * together otherwise hashes in step and finds its shares in bursts, which real miners, each
   * finding shares at its own random moments, do not.
   */
  paceOffsetMs?: number;
  /**
   * Also submit this many hashes that miss the target (one after each real share), which an honest
   * pool must reject as low difficulty (23). They count towards `maxShares` like any other share.
   */
  lowDifficultyShares?: number;
}

export interface MinerReport {
  submitted: number;
  /** of `submitted`, the hashes sent although they miss the target (lowDifficultyShares) */
  lowDifficultySubmitted: number;
  accepted: number;
  rejected: Map<number, number>;
  /** difficulty-weighted accepted work */
  acceptedWork: number;
  jobs: number;
  cleanJobs: number;
  setExtranonce: number;
  reconnectRequests: number;
  disconnects: number;
  authorized: boolean;
  subscribeError: string | null;
  extranonce1: string;
  extranonce2Size: number;
  versionMask: number;
}

interface Work {
  job: Notify;
  difficulty: number;
  target: bigint;
  extranonce1: string;
  en2: number;
  nonce: number;
  /** the header for the current extranonce2 and version bits; null: build it before hashing */
  scanner: NonceScanner | null;
  versionBits: string | null;
}

const SUBSCRIBE_ID = 2;
const AUTHORIZE_ID = 3;
const CONFIGURE_ID = 1;

export class TestMiner {
  readonly report: MinerReport = {
    submitted: 0,
    lowDifficultySubmitted: 0,
    accepted: 0,
    rejected: new Map(),
    acceptedWork: 0,
    jobs: 0,
    cleanJobs: 0,
    setExtranonce: 0,
    reconnectRequests: 0,
    disconnects: 0,
    authorized: false,
    subscribeError: null,
    extranonce1: "",
    extranonce2Size: 0,
    versionMask: 0,
  };
  private socket: Socket<undefined> | null = null;
  private work: Work | null = null;
  private difficulty = 1;
  private pendingExtranonce: { en1: string; size: number } | null = null;
  private readonly pending = new Map<number, number>();
  private nextId = 10;
  private stopped = false;
  /** the wait of a miner throttled by `hashesPerSecond`, cleared at stop so it holds no process open */
  private throttle: ReturnType<typeof setTimeout> | null = null;
  private draining = false;
  private resolveDone: (r: MinerReport) => void = () => {};
  readonly done: Promise<MinerReport>;
  private readonly algorithm: ShareAlgorithm;
  private rollCounter = 0;
  /** a real share went out since the last deliberate miss */
  private owesMiss = false;

  constructor(private readonly opts: TestMinerOptions) {
    this.algorithm = algorithmFor(opts.category ?? "sha256");
    this.done = new Promise((r) => {
      this.resolveDone = r;
    });
  }

  static start(opts: TestMinerOptions): TestMiner {
    const m = new TestMiner(opts);
    void m.connect();
    if (opts.maxMs !== undefined) setTimeout(() => m.stop(), opts.maxMs);
    return m;
  }

  get answered(): number {
    let r = 0;
    for (const n of this.report.rejected.values()) r += n;
    return this.report.accepted + r;
  }

  /** Stops finding shares, waits until every submitted share is answered, then disconnects. */
  async finish(): Promise<MinerReport> {
    this.draining = true;
    while (this.pending.size > 0 && !this.stopped) await Bun.sleep(5);
    this.stop();
    return this.done;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.throttle !== null) clearTimeout(this.throttle);
    this.socket?.end();
    this.resolveDone(this.report);
  }

  private async connect(): Promise<void> {
    const splitter = new LineSplitter(
      64 * 1024,
      lineSink(
        (l) => this.onLine(l),
        () => this.socket?.end(),
      ),
    );
    try {
      this.socket = await Bun.connect({
        hostname: this.opts.host ?? "127.0.0.1",
        port: this.opts.port,
        ...(this.opts.tls ? { tls: { rejectUnauthorized: false } } : {}),
        socket: {
          // Bun drops TLS writes made before the handshake completes.
          handshake: () => this.hello(),
          data: (_s, chunk) => splitter.push(chunk),
          close: () => this.onClose(),
          error: () => this.onClose(),
        },
      });
    } catch {
      this.onClose();
      return;
    }
    if (!this.opts.tls) this.hello();
  }

  private hello(): void {
    if (this.opts.versionRolling)
      this.send(CONFIGURE_ID, Method.CONFIGURE, [
        ["version-rolling"],
        { "version-rolling.mask": "1fffe000" },
      ]);
    this.send(SUBSCRIBE_ID, Method.SUBSCRIBE, [this.opts.agent ?? "pithead-test-miner/1.0"]);
    if (this.opts.extranonceSubscribe) this.send(4, Method.EXTRANONCE_SUBSCRIBE, []);
    this.send(AUTHORIZE_ID, Method.AUTHORIZE, [this.opts.user, this.opts.password ?? "x"]);
  }

  private onClose(): void {
    if (!this.stopped) {
      this.report.disconnects++;
      this.stop();
    }
  }

  private send(id: number | null, method: string, params: unknown[]): void {
    this.socket?.write(requestLine(id, method, params));
  }

  private onLine(line: string): void {
    if (this.stopped) return;
    const m = parsePositional(line);
    if (m === null) return;
    if (m.kind === "response") {
      if (m.id === SUBSCRIBE_ID) {
        const r = parseSubscribeResult(m.result);
        if (r instanceof StratumError) {
          this.report.subscribeError = JSON.stringify(m.error);
          return;
        }
        this.report.extranonce1 = r.extranonce1;
        this.report.extranonce2Size = r.extranonce2Size;
      } else if (m.id === AUTHORIZE_ID) {
        this.report.authorized = m.result === true;
      } else if (m.id === CONFIGURE_ID) {
        const o = (m.result ?? {}) as Record<string, unknown>;
        const mask = o["version-rolling.mask"];
        this.report.versionMask =
          o["version-rolling"] === true && typeof mask === "string" ? Number.parseInt(mask, 16) >>> 0 : 0;
      } else if (typeof m.id === "number" && this.pending.has(m.id)) {
        const diff = this.pending.get(m.id) as number;
        this.pending.delete(m.id);
        if (m.result === true && (m.error === null || m.error === undefined)) {
          this.report.accepted++;
          this.report.acceptedWork += diff;
        } else {
          const code = Array.isArray(m.error) && typeof m.error[0] === "number" ? m.error[0] : 20;
          this.report.rejected.set(code, (this.report.rejected.get(code) ?? 0) + 1);
        }
        if (this.opts.maxShares !== undefined && this.answered >= this.opts.maxShares) this.stop();
      }
      return;
    }
    switch (m.method) {
      case Method.SET_DIFFICULTY: {
        const d = parseDifficulty(m.method, m.params);
        if (!(d instanceof StratumError)) this.difficulty = d;
        return;
      }
      case Method.SET_EXTRANONCE: {
        const e = parseSetExtranonce(m.params);
        if (e instanceof StratumError) return;
        this.report.setExtranonce++;
        this.pendingExtranonce = {
          en1: e.extranonce1,
          size: e.extranonce2Size ?? this.report.extranonce2Size,
        };
        return;
      }
      case Method.SET_VERSION_MASK: {
        const v = parseVersionMask(m.params);
        if (!(v instanceof StratumError)) this.report.versionMask = v;
        return;
      }
      case Method.RECONNECT:
        this.report.reconnectRequests++;
        return;
      case Method.NOTIFY: {
        const job = parseNotify(m.params);
        if (job instanceof StratumError) return;
        this.report.jobs++;
        if (job.cleanJobs) this.report.cleanJobs++;
        if (this.pendingExtranonce) {
          this.report.extranonce1 = this.pendingExtranonce.en1;
          this.report.extranonce2Size = this.pendingExtranonce.size;
          this.pendingExtranonce = null;
        }
        const wasIdle = this.work === null;
        this.work = {
          job,
          difficulty: this.difficulty,
          target: targetFor(this.difficulty, this.algorithm),
          extranonce1: this.report.extranonce1,
          en2: 0,
          nonce: 0,
          scanner: null,
          versionBits: null,
        };
        if (wasIdle) setTimeout(() => this.mine(), 0);
        return;
      }
      case Method.PING:
        this.socket?.write(`${JSON.stringify({ id: m.id, result: "pong", error: null })}\n`);
        return;
    }
  }

  private extranonce2(w: Work): string {
    const size = this.report.extranonce2Size;
    return w.en2
      .toString(16)
      .padStart(size * 2, "0")
      .slice(-size * 2);
  }

  private versionBits(): string | null {
    if (!this.opts.versionRolling || this.report.versionMask === 0) return null;
    return (((this.rollCounter & 0xff) << 13) & this.report.versionMask).toString(16).padStart(8, "0");
  }

  private scanner(w: Work): NonceScanner {
    w.versionBits = this.versionBits();
    const header = headerOf({
      coinb1: w.job.coinb1,
      extranonce1: w.extranonce1,
      extranonce2: this.extranonce2(w),
      coinb2: w.job.coinb2,
      merkleBranch: w.job.merkleBranch,
      prevHash: w.job.prevHash,
      version: rolledVersion(w.job.version, w.versionBits, this.report.versionMask),
      nbits: w.job.nbits,
      ntime: w.job.ntime,
      nonce: "00000000",
    });
    return new NonceScanner(header, this.algorithm, w.target);
  }

  private submitShare(w: Work): void {
    const id = this.nextId++;
    this.pending.set(id, w.difficulty);
    this.report.submitted++;
    const params: unknown[] = [
      this.opts.user,
      w.job.jobId,
      this.extranonce2(w),
      w.job.ntime,
      w.nonce.toString(16).padStart(8, "0"),
    ];
    if (w.versionBits !== null) params.push(w.versionBits);
    this.send(id, Method.SUBMIT, params);
  }

  private hashed = 0;
  private pacedSince = 0;

  /** Hashes allowed now by `hashesPerSecond`, or the delay in ms until one is (negative). */
  private allowance(): number {
    const hps = this.opts.hashesPerSecond;
    const batch = this.opts.batch ?? 256;
    if (hps === undefined) return batch;
    const now = performance.now();
    if (this.pacedSince === 0) this.pacedSince = now + (this.opts.paceOffsetMs ?? 0);
    const allowed = Math.floor((hps * (now - this.pacedSince)) / 1000) - this.hashed;
    if (allowed > 0) return Math.min(batch, allowed);
    return -Math.max(1, Math.ceil(((1 - allowed) * 1000) / hps));
  }

  private mine(): void {
    if (this.stopped || this.draining) return;
    const w = this.work;
    if (w === null) return;
    const batch = this.allowance();
    if (batch < 0) {
      if (this.throttle !== null) clearTimeout(this.throttle);
      this.throttle = setTimeout(() => {
        this.throttle = null;
        this.mine();
      }, -batch);
      return;
    }
    this.hashed += batch;
    const misses = this.opts.lowDifficultyShares ?? 0;
    for (let i = 0; i < batch && this.work === w; i++) {
      if (this.opts.maxShares !== undefined && this.report.submitted >= this.opts.maxShares) return;
      w.scanner ??= this.scanner(w);
      if (w.scanner.meets(w.nonce)) {
        this.submitShare(w);
        // Move to a fresh extranonce2 after each share so that shares stay unique per job.
        w.en2++;
        w.nonce = 0;
        w.scanner = null;
        this.rollCounter++;
        this.owesMiss = true;
        continue;
      }
      if (this.owesMiss && this.report.lowDifficultySubmitted < misses) {
        this.owesMiss = false;
        this.report.lowDifficultySubmitted++;
        this.submitShare(w);
      }
      w.nonce++;
      if (w.nonce > 0xffff) {
        w.nonce = 0;
        w.en2++;
        w.scanner = null;
      }
    }
    setImmediate(() => this.mine());
  }
}
