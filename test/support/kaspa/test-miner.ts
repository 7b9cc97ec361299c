/**
 * A Kaspa miner for tests that really hashes kHeavyHash at the pool's difficulty: it subscribes with
 * an agent that asks for the u64 array form (lolMiner-like) or the 80-hex form (IceRiverMiner-like),
 * optionally sends mining.extranonce.subscribe, authorizes, takes mining.set_extranonce as the high
 * bytes of its nonce, reads notify lines from their raw text (never a lossy JSON number), and
 * submits [user, jobId, full 16-hex nonce] until it has `maxShares` answers.
 */
import { randomInt } from "node:crypto";
import type { Socket } from "bun";
import { errorMessage, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { readNotify } from "./kaspa-job.ts";
import { type HeavyHashAlgorithm, KHeavyHasher, targetOfDifficulty } from "./kheavyhash.ts";

export interface TestKaspaMinerOptions {
  port: number;
  user: string;
  /** "hex": presents itself as IceRiverMiner and expects the 80-hex notify form */
  form?: "u64" | "hex";
  /** sends mining.extranonce.subscribe (default true) */
  extranonceSubscribe?: boolean;
  maxShares: number;
  /** the heavy hash it mines with (default Kaspa's; PYRIN for blake3s) */
  algorithm?: HeavyHashAlgorithm;
}

export interface MinerResult {
  loggedIn: boolean;
  accepted: number;
  rejected: Map<string, number>;
  setExtranonce: number;
  /** the notify forms received, counted */
  forms: { u64: number; hex: number };
  closedByProxy: boolean;
}

interface Work {
  id: string;
  hasher: KHeavyHasher;
  target: bigint;
  prefix: string;
}

/** Hashes per turn of the event loop: the pool and proxy share this thread. */
const BATCH = 32;

export class TestKaspaMiner {
  readonly result: MinerResult = {
    loggedIn: false,
    accepted: 0,
    rejected: new Map(),
    setExtranonce: 0,
    forms: { u64: 0, hex: 0 },
    closedByProxy: false,
  };
  readonly done: Promise<MinerResult>;
  private resolve!: (r: MinerResult) => void;
  private socket: Socket<undefined> | null = null;
  private nextId = 10;
  private prefix = "";
  private difficulty = 1;
  private work: Work | null = null;
  private counter = BigInt(randomInt(2 ** 40));
  private submitted = 0;
  private answered = 0;
  private stopped = false;
  private readonly shareIds = new Set<number>();

  private constructor(private readonly opts: TestKaspaMinerOptions) {
    this.done = new Promise((r) => {
      this.resolve = r;
    });
  }

  static start(opts: TestKaspaMinerOptions): TestKaspaMiner {
    const m = new TestKaspaMiner(opts);
    m.connect();
    return m;
  }

  stop(): void {
    this.finish();
    this.socket?.end();
  }

  private finish(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.resolve(this.result);
  }

  private write(obj: unknown): void {
    this.socket?.write(`${JSON.stringify(obj)}\n`);
  }

  private connect(): void {
    const reader = new LineReader(
      (line) => this.onLine(line),
      () => this.stop(),
    );
    const agent = this.opts.form === "hex" ? "IceRiverMiner/test" : "lolMiner/test";
    void Bun.connect({
      hostname: "127.0.0.1",
      port: this.opts.port,
      socket: {
        open: (s) => {
          this.socket = s;
          this.write({ id: 1, method: "mining.subscribe", params: [agent, "EthereumStratum/1.0.0"] });
          if (this.opts.extranonceSubscribe !== false)
            this.write({ id: 2, method: "mining.extranonce.subscribe", params: [] });
          this.write({ id: 3, method: "mining.authorize", params: [this.opts.user, "x"] });
        },
        data: (_s, chunk) => reader.push(chunk),
        close: () => {
          if (!this.stopped) this.result.closedByProxy = true;
          this.finish();
        },
        error: () => this.finish(),
      },
    });
  }

  private onLine(line: string): void {
    const m = parseEnvelope(line);
    if (m === null) return;
    if (m.method === null) {
      if (m.id === 3 && m.result === true) {
        this.result.loggedIn = true;
        this.hashLoop();
      }
      if (typeof m.id === "number" && this.shareIds.delete(m.id)) this.onAnswer(m.result, m.error);
      return;
    }
    switch (m.method) {
      case "mining.set_extranonce":
        this.result.setExtranonce++;
        this.prefix = typeof m.params[0] === "string" ? m.params[0] : "";
        return;
      case "mining.set_difficulty":
        this.difficulty = typeof m.params[0] === "number" ? m.params[0] : 1;
        return;
      case "mining.notify": {
        const n = readNotify(line);
        if (n === null) return;
        this.result.forms[Array.isArray(m.params[1]) ? "u64" : "hex"]++;
        this.work = {
          id: n.id,
          hasher: new KHeavyHasher(n.prePow, n.timestamp, this.opts.algorithm),
          target: targetOfDifficulty(this.difficulty),
          prefix: this.prefix,
        };
        return;
      }
    }
  }

  private onAnswer(result: unknown, error: unknown): void {
    this.answered++;
    if (result === true) this.result.accepted++;
    else {
      const why = errorMessage(error) ?? "rejected";
      this.result.rejected.set(why, (this.result.rejected.get(why) ?? 0) + 1);
    }
    if (this.answered >= this.opts.maxShares) this.stop();
  }

  private hashLoop(): void {
    if (this.stopped || this.submitted >= this.opts.maxShares) return;
    const w = this.work;
    if (w !== null) {
      const freeBits = BigInt(64 - (w.prefix.length / 2) * 8);
      const high = w.prefix === "" ? 0n : BigInt(`0x${w.prefix}`) << freeBits;
      const mask = (1n << freeBits) - 1n;
      for (let i = 0; i < BATCH; i++) {
        const nonce = high | (this.counter++ & mask);
        if (w.hasher.pow(nonce) <= w.target) {
          const id = this.nextId++;
          this.shareIds.add(id);
          this.submitted++;
          this.write({
            id,
            method: "mining.submit",
            params: [this.opts.user, w.id, nonce.toString(16).padStart(16, "0")],
          });
          break;
        }
      }
    }
    setTimeout(() => this.hashLoop(), 0);
  }
}
