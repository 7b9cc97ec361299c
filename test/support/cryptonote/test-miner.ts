/**
 * A CryptoNote miner that really hashes RandomX (light mode, through librandomx), behaving like xmrig
 * where a proxy can tell the difference: it logs in with an xmrig agent, mines the job from the login
 * result and every later "job" notification, and keeps the nonce's top byte (blob[42]) whenever the
 * pool advertises the "nicehash" extension or hands out a blob whose nonce is already non-zero — the
 * rule of xmrig's Job::setBlob and Job::nonceMask. It stops by itself after `maxShares` answered shares
 * or `maxMs`, whichever comes first.
 *
 * `misbehave` makes it submit shares a pool must refuse, for tests of the refusal path:
 * - "above-target": a correctly hashed nonce whose hash does not meet the target;
 * - "wrong-result": a valid share with a corrupted `result`;
 * - "duplicate": every valid share twice;
 * - "previous-job": shares mined on the job before the latest one (stale after a new block).
 */
import type { Socket } from "bun";
import { NONCE_OFFSET, nonceHex, readNonce, withNonce } from "./hashing-blob.ts";
import { LineReader, parseRpcLine, type RpcResponse, requestLine } from "./json-lines.ts";
import { ALGO_RX0, type JobParams, Method, parseJob, parseLoginResult } from "./messages.ts";
import { type RandomXLight, sharedRandomX } from "./randomx.ts";
import { difficultyOfTarget, meetsTarget, parseTarget } from "./target.ts";

export type Misbehaviour = "above-target" | "wrong-result" | "duplicate" | "previous-job";

export interface CryptoNoteMinerOptions {
  host?: string;
  port: number;
  /** wallet address, optionally with a worker suffix, as the pool expects it */
  login: string;
  pass?: string;
  agent?: string;
  rigid?: string;
  maxShares?: number;
  maxMs?: number;
  /** send keepalived this often (xmrig: 60 s); off by default */
  keepaliveMs?: number;
  /** RandomX hashes between yields to the event loop; light mode takes milliseconds per hash */
  hashesPerTurn?: number;
  misbehave?: Misbehaviour;
  hasher?: RandomXLight;
}

export interface CryptoNoteMinerReport {
  loggedIn: boolean;
  loginError: string | null;
  rpcId: string;
  extensions: string[];
  jobs: number;
  /** jobs mined with the nonce's top byte kept (NiceHash mode) */
  nicehashJobs: number;
  hashes: number;
  submitted: number;
  accepted: number;
  /** rejected shares by the pool's error message */
  rejected: Map<string, number>;
  /** Σ difficulty (2^64 / target64) of accepted shares */
  acceptedWork: number;
  keepalives: number;
  disconnects: number;
  /** the top byte (blob[42]) of every submitted nonce: one value per job owner in NiceHash mode */
  nonceTopBytes: Set<number>;
}

interface Work {
  job: JobParams;
  blob: Uint8Array;
  seedHash: Uint8Array;
  target64: bigint;
  difficulty: number;
  nicehash: boolean;
  /** the nonce bits this miner may change: all 32, or the low 24 in NiceHash mode */
  mask: number;
  counter: number;
}

const LOGIN_ID = 1;
const NICEHASH_MASK = 0x00ffffff;
const FULL_MASK = 0xffffffff;

export class CryptoNoteTestMiner {
  readonly report: CryptoNoteMinerReport = {
    loggedIn: false,
    loginError: null,
    rpcId: "",
    extensions: [],
    jobs: 0,
    nicehashJobs: 0,
    hashes: 0,
    submitted: 0,
    accepted: 0,
    rejected: new Map(),
    acceptedWork: 0,
    keepalives: 0,
    disconnects: 0,
    nonceTopBytes: new Set(),
  };
  readonly done: Promise<CryptoNoteMinerReport>;
  private socket: Socket<undefined> | null = null;
  private work: Work | null = null;
  private previous: Work | null = null;
  /** submit id → difficulty of the share, until the pool answers */
  private readonly pending = new Map<number, number>();
  private nextId = LOGIN_ID + 1;
  private stopped = false;
  private draining = false;
  private mining = false;
  private keepaliveTimer: ReturnType<typeof setInterval> | null = null;
  private resolveDone: (r: CryptoNoteMinerReport) => void = () => {};
  private readonly hasher: RandomXLight;

  constructor(private readonly opts: CryptoNoteMinerOptions) {
    this.hasher = opts.hasher ?? sharedRandomX();
    this.done = new Promise((r) => {
      this.resolveDone = r;
    });
  }

  static start(opts: CryptoNoteMinerOptions): CryptoNoteTestMiner {
    const m = new CryptoNoteTestMiner(opts);
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
  async finish(): Promise<CryptoNoteMinerReport> {
    this.draining = true;
    while (this.pending.size > 0 && !this.stopped) await Bun.sleep(5);
    this.stop();
    return this.done;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.socket?.end();
    this.resolveDone(this.report);
  }

  private async connect(): Promise<void> {
    const reader = new LineReader(
      (line) => this.onLine(line),
      () => this.socket?.end(),
    );
    try {
      this.socket = await Bun.connect({
        hostname: this.opts.host ?? "127.0.0.1",
        port: this.opts.port,
        socket: {
          data: (_s, chunk) => reader.push(chunk),
          close: () => this.onClose(),
          error: () => this.onClose(),
        },
      });
    } catch {
      this.onClose();
      return;
    }
    const params: Record<string, unknown> = {
      login: this.opts.login,
      pass: this.opts.pass ?? "x",
      agent: this.opts.agent ?? "xmrig/6.21.0",
      algo: [ALGO_RX0],
    };
    if (this.opts.rigid !== undefined) params.rigid = this.opts.rigid;
    this.socket.write(requestLine(LOGIN_ID, Method.LOGIN, params));
  }

  private onClose(): void {
    if (!this.stopped) {
      this.report.disconnects++;
      this.stop();
    }
  }

  private onLine(line: string): void {
    if (this.stopped) return;
    const m = parseRpcLine(line);
    if (m === null) return;
    if (m.kind === "response") this.onResponse(m);
    else if (m.method === Method.JOB) {
      const job = parseJob(m.params);
      if (typeof job !== "string") this.setJob(job);
    }
  }

  private onResponse(m: RpcResponse): void {
    if (m.id === LOGIN_ID) {
      if (m.error !== null) {
        this.report.loginError = m.error.message;
        return;
      }
      const r = parseLoginResult(m.result);
      if (typeof r === "string") {
        this.report.loginError = r;
        return;
      }
      this.report.loggedIn = true;
      this.report.rpcId = r.id;
      this.report.extensions = r.extensions;
      if (this.opts.keepaliveMs !== undefined)
        this.keepaliveTimer = setInterval(() => this.keepalive(), this.opts.keepaliveMs);
      this.setJob(r.job);
      return;
    }
    if (typeof m.id !== "number") return;
    const difficulty = this.pending.get(m.id);
    if (difficulty === undefined) {
      if (m.error === null && isKeepalived(m.result)) this.report.keepalives++;
      return;
    }
    this.pending.delete(m.id);
    if (m.error === null) {
      this.report.accepted++;
      this.report.acceptedWork += difficulty;
    } else {
      const msg = m.error.message;
      this.report.rejected.set(msg, (this.report.rejected.get(msg) ?? 0) + 1);
    }
    if (this.opts.maxShares !== undefined && this.answered >= this.opts.maxShares) this.stop();
  }

  private keepalive(): void {
    this.socket?.write(requestLine(this.nextId++, Method.KEEPALIVED, { id: this.report.rpcId }));
  }

  private setJob(job: JobParams): void {
    const target64 = parseTarget(job.target);
    const blob = Buffer.from(job.blob, "hex");
    if (target64 === null || blob.length < NONCE_OFFSET + 4) return;
    this.report.jobs++;
    // xmrig: NiceHash mode when the pool advertised it, or when the blob's nonce is already set.
    const nicehash = this.report.extensions.includes("nicehash") || readNonce(blob) !== 0;
    if (nicehash) this.report.nicehashJobs++;
    this.previous = this.work;
    this.work = {
      job,
      blob,
      seedHash: Buffer.from(job.seed_hash, "hex"),
      target64,
      difficulty: difficultyOfTarget(target64),
      nicehash,
      mask: nicehash ? NICEHASH_MASK : FULL_MASK,
      counter: 0,
    };
    if (!this.mining) {
      this.mining = true;
      setImmediate(() => this.mine());
    }
  }

  /** The work to hash: the latest job, or the one before it when told to submit stale shares. */
  private workToHash(): Work | null {
    if (this.opts.misbehave === "previous-job" && this.previous !== null) return this.previous;
    return this.work;
  }

  private mine(): void {
    if (this.stopped || this.draining) {
      this.mining = false;
      return;
    }
    const perTurn = this.opts.hashesPerTurn ?? 1;
    for (let i = 0; i < perTurn; i++) {
      if (this.opts.maxShares !== undefined && this.report.submitted >= this.opts.maxShares) {
        this.mining = false;
        return;
      }
      const w = this.workToHash();
      if (w === null) break;
      this.tryNonce(w);
    }
    setImmediate(() => this.mine());
  }

  private tryNonce(w: Work): void {
    const fixed = readNonce(w.blob) & ~w.mask;
    const nonce = (fixed | (w.counter & w.mask)) >>> 0;
    w.counter++;
    const hash = this.hasher.hash(w.seedHash, withNonce(w.blob, nonce));
    this.report.hashes++;
    const meets = meetsTarget(hash, w.target64);
    const submitAnyway = this.opts.misbehave === "above-target";
    if (meets === submitAnyway) return;
    if (this.opts.misbehave === "wrong-result") hash[0] = (hash[0] ?? 0) ^ 0xff;
    this.submit(w, nonce, hash);
    if (this.opts.misbehave === "duplicate") this.submit(w, nonce, hash);
  }

  private submit(w: Work, nonce: number, hash: Uint8Array): void {
    const id = this.nextId++;
    this.pending.set(id, w.difficulty);
    this.report.submitted++;
    this.report.nonceTopBytes.add(nonce >>> 24);
    this.socket?.write(
      requestLine(id, Method.SUBMIT, {
        id: this.report.rpcId,
        job_id: w.job.job_id,
        nonce: nonceHex(nonce),
        result: Buffer.from(hash).toString("hex"),
        algo: w.job.algo,
      }),
    );
  }
}

const isKeepalived = (result: unknown): boolean =>
  result !== null && typeof result === "object" && (result as { status?: unknown }).status === "KEEPALIVED";
