/**
 * A miner that really hashes ethash (light, via @ethereumjs/ethash, ≈100 ms a hash) in either dialect:
 * - ETHPROXY: eth_submitLogin with a top-level worker, eth_getWork, follows work pushed with id 0, submits
 *   [nonce, header, mix] and reports its measured hashrate with eth_submitHashrate.
 * - EthereumStratum/1.0.0: subscribe, extranonce.subscribe, authorize; the nonce is the pool's extranonce
 *   prefix followed by the miner's own counter, and only the counter part is submitted.
 * It stops by itself after `maxShares` answered shares or `maxMs`, whichever comes first.
 *
 * `sabotage` makes it misbehave on purpose so that tests can see a pool (or a proxy in front of one) refuse:
 * - "low-difficulty": submits only nonces whose result misses the target (needs a target some hashes miss);
 * - "wrong-mix": submits valid nonces with one bit of the mix digest flipped (ETHPROXY only);
 * - "duplicate": submits every valid share twice;
 * - "stale": holds every valid share until a newer job arrives, then submits it for the job it was found on.
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "bun";
import { nicehashTarget, workOfBoundary } from "./difficulty.ts";
import { epochOfSeed, lightCache, readyLightCache } from "./ethash.ts";
import { bigIntToHex, bytesToBigInt, bytesToHex, hexOfLength, hexToBytes } from "./hex.ts";
import { type Envelope, errorMessage, LineReader, type MessageId, parseEnvelope } from "./json-lines.ts";
import {
  type Dialect,
  ETHPROXY_PUSH_ID,
  EthproxyMethod,
  NICEHASH_PROTOCOL,
  NicehashMethod,
} from "./methods.ts";

export type Sabotage = "low-difficulty" | "wrong-mix" | "duplicate" | "stale";

export interface TestEthMinerOptions {
  host?: string;
  port: number;
  dialect: Dialect;
  /** "account.rig" (ETHPROXY login, EthereumStratum/1.0.0 authorize and submit) */
  user: string;
  password?: string;
  /** ETHPROXY top-level worker; defaults to the rig part of `user` */
  worker?: string;
  /** EthereumStratum/1.0.0 subscribe agent */
  agent?: string;
  maxShares?: number;
  maxMs?: number;
  /** EthereumStratum/1.0.0: send mining.extranonce.subscribe (default true) */
  extranonceSubscribe?: boolean;
  /** ETHPROXY: eth_submitHashrate this often */
  hashrateIntervalMs?: number;
  sabotage?: Sabotage;
}

export interface EthMinerReport {
  dialect: Dialect;
  /** ETHPROXY login or EthereumStratum/1.0.0 authorize accepted */
  loggedIn: boolean;
  loginError: string | null;
  /** EthereumStratum/1.0.0 extranonce prefix in force */
  extranonce: string;
  /** EthereumStratum/1.0.0: the last mining.set_difficulty */
  difficulty: number | null;
  jobs: number;
  cleanJobs: number;
  setExtranonce: number;
  hashes: number;
  submitted: number;
  /** "stale" sabotage: shares waiting for a newer job */
  held: number;
  accepted: number;
  /** rejected shares by the pool's error message */
  rejected: Map<string, number>;
  /** Σ credited work of accepted shares, in diff-1 shares (difficulty.ts) */
  acceptedWork: number;
  hashratesSent: bigint[];
  disconnects: number;
}

interface MinerJob {
  /** what a share names the job by: EthereumStratum/1.0.0 job id, ETHPROXY header hash */
  key: string;
  headerHash: Uint8Array;
  headerHex: string;
  seedHash: Uint8Array;
  epoch: number;
  target: bigint;
  work: number;
  extranonce: string;
  counter: bigint;
}

interface Found {
  job: MinerJob;
  nonce: bigint;
  mix: Uint8Array;
}

type Pending = { kind: "share"; work: number } | { kind: "hashrate" };

// Fixed ids of the handshake; shares and hashrate reports count up from FIRST_FREE_ID.
const LOGIN_ID = 1;
const GET_WORK_ID = 2;
const SUBSCRIBE_ID = 1;
const EXTRANONCE_SUBSCRIBE_ID = 2;
const AUTHORIZE_ID = 3;
const FIRST_FREE_ID = 10;

export class TestEthMiner {
  readonly report: EthMinerReport;
  readonly done: Promise<EthMinerReport>;
  private socket: Socket<undefined> | null = null;
  private job: MinerJob | null = null;
  private difficulty = 1;
  private pendingExtranonce: string | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly held: Found[] = [];
  private nextId = FIRST_FREE_ID;
  private stopped = false;
  private draining = false;
  private hashing = false;
  private startedAt = 0;
  private hashrateTimer: ReturnType<typeof setInterval> | null = null;
  private maxTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly hashrateId = bytesToHex(new Uint8Array(randomBytes(32)));
  private resolveDone: (r: EthMinerReport) => void = () => {};

  constructor(private readonly opts: TestEthMinerOptions) {
    if (opts.sabotage === "wrong-mix" && opts.dialect !== "ethproxy")
      throw new Error("wrong-mix needs ETHPROXY: EthereumStratum/1.0.0 submits no mix digest");
    this.report = {
      dialect: opts.dialect,
      loggedIn: false,
      loginError: null,
      extranonce: "",
      difficulty: null,
      jobs: 0,
      cleanJobs: 0,
      setExtranonce: 0,
      hashes: 0,
      submitted: 0,
      held: 0,
      accepted: 0,
      rejected: new Map(),
      acceptedWork: 0,
      hashratesSent: [],
      disconnects: 0,
    };
    this.done = new Promise((r) => {
      this.resolveDone = r;
    });
  }

  static start(opts: TestEthMinerOptions): TestEthMiner {
    const m = new TestEthMiner(opts);
    void m.connect();
    if (opts.maxMs !== undefined) m.maxTimer = setTimeout(() => m.stop(), opts.maxMs);
    return m;
  }

  get answered(): number {
    let n = this.report.accepted;
    for (const r of this.report.rejected.values()) n += r;
    return n;
  }

  /** Stops finding shares, waits until every submission is answered, then disconnects. */
  async finish(): Promise<EthMinerReport> {
    this.draining = true;
    this.stopHashrateReports();
    while (this.pending.size > 0 && !this.stopped) await Bun.sleep(5);
    this.stop();
    return this.done;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopHashrateReports();
    if (this.maxTimer !== null) clearTimeout(this.maxTimer);
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
    this.startedAt = performance.now();
    if (this.opts.dialect === "ethproxy")
      this.send(LOGIN_ID, EthproxyMethod.SUBMIT_LOGIN, [this.opts.user, this.opts.password ?? "x"]);
    else
      this.send(SUBSCRIBE_ID, NicehashMethod.SUBSCRIBE, [
        this.opts.agent ?? "pithead-eth-test-miner/1.0",
        NICEHASH_PROTOCOL,
      ]);
  }

  private onClose(): void {
    if (this.stopped) return;
    this.report.disconnects++;
    this.stop();
  }

  private get worker(): string | null {
    if (this.opts.worker !== undefined) return this.opts.worker;
    const dot = this.opts.user.indexOf(".");
    return dot < 0 ? null : this.opts.user.slice(dot + 1);
  }

  private send(id: MessageId, method: string, params: unknown[]): void {
    const line =
      this.opts.dialect === "ethproxy"
        ? { id, jsonrpc: "2.0", method, params, ...(this.worker === null ? {} : { worker: this.worker }) }
        : { id, method, params };
    this.socket?.write(`${JSON.stringify(line)}\n`);
  }

  private onLine(line: string): void {
    if (this.stopped) return;
    const m = parseEnvelope(line);
    if (m === null) return;
    const ethproxy = this.opts.dialect === "ethproxy";
    if (m.method !== null) this.onNotification(m);
    else if (typeof m.id === "number" && this.pending.has(m.id)) this.onAnswer(m.id, m);
    else if (ethproxy && (m.id === ETHPROXY_PUSH_ID || m.id === GET_WORK_ID)) this.onWork(m.result);
    else if (ethproxy && m.id === LOGIN_ID) this.onLoggedIn(m);
    else if (!ethproxy && m.id === SUBSCRIBE_ID) this.onSubscribed(m);
    else if (!ethproxy && m.id === AUTHORIZE_ID) {
      this.report.loggedIn = m.result === true;
      this.report.loginError = errorMessage(m.error);
    }
  }

  private onLoggedIn(m: Envelope): void {
    this.report.loggedIn = m.result === true;
    this.report.loginError = errorMessage(m.error);
    if (!this.report.loggedIn) return;
    this.send(GET_WORK_ID, EthproxyMethod.GET_WORK, []);
    this.hashrateTimer = setInterval(() => this.sendHashrate(), this.opts.hashrateIntervalMs ?? 1000);
  }

  private onSubscribed(m: Envelope): void {
    const r = m.result;
    const extranonce = Array.isArray(r) && typeof r[1] === "string" ? r[1] : null;
    if (extranonce === null || extranonce.length > 6 || hexOfLength(extranonce, extranonce.length) === null) {
      this.report.loginError = errorMessage(m.error) ?? "bad subscribe result";
      return;
    }
    this.report.extranonce = extranonce.toLowerCase();
    if (this.opts.extranonceSubscribe !== false)
      this.send(EXTRANONCE_SUBSCRIBE_ID, NicehashMethod.EXTRANONCE_SUBSCRIBE, []);
    this.send(AUTHORIZE_ID, NicehashMethod.AUTHORIZE, [this.opts.user, this.opts.password ?? "x"]);
  }

  private onAnswer(id: number, m: Envelope): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (p?.kind !== "share") return;
    const message = errorMessage(m.error);
    if (m.result === true && message === null) {
      this.report.accepted++;
      this.report.acceptedWork += p.work;
    } else {
      const key = message ?? "rejected";
      this.report.rejected.set(key, (this.report.rejected.get(key) ?? 0) + 1);
    }
    if (this.opts.maxShares !== undefined && this.answered >= this.opts.maxShares) this.stop();
  }

  private onNotification(m: Envelope): void {
    if (this.opts.dialect !== "nicehash") return;
    switch (m.method) {
      case NicehashMethod.SET_DIFFICULTY: {
        const d = m.params[0];
        if (typeof d === "number" && d > 0) this.difficulty = d;
        this.report.difficulty = this.difficulty;
        return;
      }
      case NicehashMethod.SET_EXTRANONCE: {
        const e = m.params[0];
        if (typeof e !== "string" || e.length > 6 || hexOfLength(e, e.length) === null) return;
        this.report.setExtranonce++;
        this.pendingExtranonce = e.toLowerCase();
        return;
      }
      case NicehashMethod.NOTIFY: {
        const [jobId, seed, header, clean] = m.params;
        const seedHex = hexOfLength(seed, 64);
        const headerHex = hexOfLength(header, 64);
        if (typeof jobId !== "string" || seedHex === null || headerHex === null) return;
        if (this.pendingExtranonce !== null) {
          this.report.extranonce = this.pendingExtranonce;
          this.pendingExtranonce = null;
        }
        if (clean === true) this.report.cleanJobs++;
        this.setJob(jobId, headerHex, seedHex, nicehashTarget(this.difficulty), this.difficulty);
        return;
      }
    }
  }

  /** ETHPROXY work: [header, seed, boundary(, block)], from eth_getWork or pushed with id 0. */
  private onWork(result: unknown): void {
    if (!Array.isArray(result)) return;
    const header = hexOfLength(result[0], 64);
    const seed = hexOfLength(result[1], 64);
    const boundary = hexOfLength(result[2], 64);
    if (header === null || seed === null || boundary === null) return;
    if (this.job?.headerHex === header) return;
    const target = BigInt(`0x${boundary}`);
    this.setJob(header, header, seed, target, workOfBoundary(target));
  }

  private setJob(key: string, headerHex: string, seedHex: string, target: bigint, work: number): void {
    this.report.jobs++;
    // Held shares go out now, naming the job they were found on, which the pool may have dropped.
    for (const f of this.held.splice(0)) this.submit(f);
    this.report.held = 0;
    const seedHash = hexToBytes(seedHex);
    this.job = {
      key,
      headerHash: hexToBytes(headerHex),
      headerHex,
      seedHash,
      epoch: epochOfSeed(seedHash),
      target,
      work,
      extranonce: this.opts.dialect === "nicehash" ? this.report.extranonce : "",
      counter: bytesToBigInt(new Uint8Array(randomBytes(8))),
    };
    this.scheduleHash();
  }

  private scheduleHash(): void {
    if (this.hashing) return;
    this.hashing = true;
    // One hash per event-loop turn: at ≈100 ms a hash, batching would starve the socket.
    setImmediate(() => this.hashOnce());
  }

  private limitReached(): boolean {
    const max = this.opts.maxShares;
    return max !== undefined && this.report.submitted + this.held.length >= max;
  }

  private hashOnce(): void {
    this.hashing = false;
    const job = this.job;
    if (this.stopped || this.draining || job === null || this.limitReached()) return;
    const cache = readyLightCache(job.epoch);
    if (cache === null) {
      void lightCache(job.epoch).then(() => this.scheduleHash());
      return;
    }
    const nonce = this.nextNonce(job);
    const { mixDigest, result } = cache.hashimoto(job.headerHash, nonce);
    this.report.hashes++;
    const meets = bytesToBigInt(result) <= job.target;
    if (meets !== (this.opts.sabotage === "low-difficulty")) this.found({ job, nonce, mix: mixDigest });
    this.scheduleHash();
  }

  /** ETHPROXY: the whole 64-bit counter; EthereumStratum/1.0.0: extranonce prefix ‖ counter. */
  private nextNonce(job: MinerJob): bigint {
    const counterBits = BigInt(64 - job.extranonce.length * 4);
    const counter = job.counter & ((1n << counterBits) - 1n);
    job.counter++;
    const prefix = job.extranonce === "" ? 0n : BigInt(`0x${job.extranonce}`);
    return (prefix << counterBits) | counter;
  }

  private found(f: Found): void {
    switch (this.opts.sabotage) {
      case "stale":
        this.held.push(f);
        this.report.held = this.held.length;
        return;
      case "duplicate":
        this.submit(f);
        this.submit(f);
        return;
      case "wrong-mix": {
        const mix = Uint8Array.from(f.mix);
        mix[0] ^= 0x01;
        this.submit({ ...f, mix });
        return;
      }
      default:
        this.submit(f);
    }
  }

  private submit(f: Found): void {
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", work: f.job.work });
    this.report.submitted++;
    const nonceHex = bigIntToHex(f.nonce, 8);
    if (this.opts.dialect === "ethproxy")
      this.send(id, EthproxyMethod.SUBMIT_WORK, [
        `0x${nonceHex}`,
        `0x${f.job.headerHex}`,
        `0x${bytesToHex(f.mix)}`,
      ]);
    else
      this.send(id, NicehashMethod.SUBMIT, [
        this.opts.user,
        f.job.key,
        nonceHex.slice(f.job.extranonce.length),
      ]);
  }

  private sendHashrate(): void {
    if (this.stopped || this.draining) return;
    const elapsedMs = performance.now() - this.startedAt;
    const rate = elapsedMs > 0 ? BigInt(Math.round((this.report.hashes * 1000) / elapsedMs)) : 0n;
    const id = this.nextId++;
    this.pending.set(id, { kind: "hashrate" });
    this.report.hashratesSent.push(rate);
    this.send(id, EthproxyMethod.SUBMIT_HASHRATE, [`0x${bigIntToHex(rate, 32)}`, `0x${this.hashrateId}`]);
  }

  private stopHashrateReports(): void {
    if (this.hashrateTimer !== null) clearInterval(this.hashrateTimer);
    this.hashrateTimer = null;
  }
}
