/**
 * A miner that really hashes (sha256d or scrypt) at the low difficulty a test pool hands out, with or
 * without mining.extranonce.subscribe and version rolling. It stops by itself after `maxShares`
 * answered shares or `maxMs`, whichever comes first.
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
import {
  algorithmOf,
  headerHash,
  merkleRoot,
  rollVersion,
} from "../../../appliance/engine/stratum/bitcoin/pow.ts";
import { targetForDifficulty } from "../../../appliance/engine/stratum/bitcoin/target.ts";
import { LineSplitter, lineSink } from "../../../appliance/engine/stratum/line-codec.ts";
import { parseMessage, requestLine } from "../../../appliance/engine/stratum/message.ts";

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
}

export interface MinerReport {
  submitted: number;
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
  prefix: Buffer | null;
  version: string;
}

const SUBSCRIBE_ID = 2;
const AUTHORIZE_ID = 3;
const CONFIGURE_ID = 1;

export class TestMiner {
  readonly report: MinerReport = {
    submitted: 0,
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
  private draining = false;
  private resolveDone: (r: MinerReport) => void = () => {};
  readonly done: Promise<MinerReport>;
  private readonly category: "sha256" | "scrypt";
  private rollCounter = 0;

  constructor(private readonly opts: TestMinerOptions) {
    this.category = opts.category ?? "sha256";
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
    const m = parseMessage(line);
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
          target: targetForDifficulty(this.difficulty, this.category),
          extranonce1: this.report.extranonce1,
          en2: 0,
          nonce: 0,
          prefix: null,
          version: job.version,
        };
        if (wasIdle) setTimeout(() => this.mine(), 0);
        return;
      }
      case Method.PING:
        this.socket?.write(`${JSON.stringify({ id: m.id, result: "pong", error: null })}\n`);
        return;
    }
  }

  private prefix(w: Work, versionBits: string | null): Buffer {
    const en2 = w.en2
      .toString(16)
      .padStart(this.report.extranonce2Size * 2, "0")
      .slice(-this.report.extranonce2Size * 2);
    const coinbase = Buffer.from(w.job.coinb1 + w.extranonce1 + en2 + w.job.coinb2, "hex");
    const root = merkleRoot(coinbase, w.job.merkleBranch);
    const version = rollVersion(w.job.version, versionBits, this.report.versionMask);
    const prev = Buffer.from(w.job.prevHash, "hex");
    for (let i = 0; i < 32; i += 4) prev.subarray(i, i + 4).reverse();
    return Buffer.concat([
      Buffer.from(version, "hex").reverse(),
      prev,
      root,
      Buffer.from(w.job.ntime, "hex").reverse(),
      Buffer.from(w.job.nbits, "hex").reverse(),
    ]);
  }

  private mine(): void {
    if (this.stopped || this.draining) return;
    const w = this.work;
    if (w === null) return;
    const batch = this.opts.batch ?? 256;
    const algo = algorithmOf(this.category);
    const header = Buffer.alloc(80);
    for (let i = 0; i < batch && this.work === w; i++) {
      let versionBits: string | null = null;
      if (this.opts.versionRolling && this.report.versionMask !== 0) {
        versionBits = (((this.rollCounter & 0xff) << 13) & this.report.versionMask)
          .toString(16)
          .padStart(8, "0");
      }
      if (w.prefix === null) {
        w.prefix = this.prefix(w, versionBits);
        w.version = versionBits ?? "";
      }
      w.prefix.copy(header, 0);
      header.writeUInt32LE(w.nonce, 76);
      if (this.opts.maxShares !== undefined && this.report.submitted >= this.opts.maxShares) return;
      if (headerHash(header, algo) <= w.target) {
        const id = this.nextId++;
        this.pending.set(id, w.difficulty);
        this.report.submitted++;
        const en2 = w.en2
          .toString(16)
          .padStart(this.report.extranonce2Size * 2, "0")
          .slice(-this.report.extranonce2Size * 2);
        const params: unknown[] = [
          this.opts.user,
          w.job.jobId,
          en2,
          w.job.ntime,
          w.nonce.toString(16).padStart(8, "0"),
        ];
        if (versionBits !== null) params.push(versionBits);
        this.send(id, Method.SUBMIT, params);
        // Move to a fresh extranonce2 after each share so that shares stay unique per job.
        w.en2++;
        w.nonce = 0;
        w.prefix = null;
        this.rollCounter++;
        continue;
      }
      w.nonce++;
      if (w.nonce > 0xffff) {
        w.nonce = 0;
        w.en2++;
        w.prefix = null;
      }
    }
    setImmediate(() => this.mine());
  }
}
