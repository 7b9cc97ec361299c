/**
 * A miner that really hashes Alephium's blake3 PoW (pow.ts), as the reference pool's miners do:
 * mining.subscribe, mining.authorize, then it follows mining.set_extranonce (the prefix of every nonce it
 * tries from the next notify on), mining.set_difficulty and mining.notify; it mines one template of the
 * latest notify, keeps a nonce only when its hash lands on the template's chain and meets the template's
 * targetBlob, and submits {jobId, fromGroup, toGroup, nonce, worker}. It stops by itself after `maxShares`
 * answered shares.
 *
 * `sabotage` makes it misbehave on purpose, so that tests see the proxy refuse:
 * - "outside-prefix": flips the first nonce byte of every share;
 * - "wrong-chain": names another chain than the template's in every share.
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "bun";
import { errorMessage, LineReader } from "../ethereum/json-lines.ts";
import { chainOf, hashValue, hexBytes, NONCE_BYTES, powHash, targetOfDifficulty } from "./pow.ts";
import { type Message, parseLine } from "./wire.ts";

export type Sabotage = "outside-prefix" | "wrong-chain";

export interface TestAlphMinerOptions {
  port: number;
  user: string;
  agent?: string;
  maxShares?: number;
  sabotage?: Sabotage;
}

export interface AlphMinerReport {
  loggedIn: boolean;
  loginError: string | null;
  extranonce: string;
  /** every prefix the miner was given, in order */
  extranonces: string[];
  difficulty: number | null;
  jobs: number;
  setExtranonce: number;
  hashes: number;
  submitted: number;
  accepted: number;
  rejected: Map<string, number>;
  disconnects: number;
}

interface MinerJob {
  jobId: string;
  fromGroup: number;
  toGroup: number;
  header: Uint8Array;
  target: bigint;
  prefix: Uint8Array;
}

/** Hashes per event-loop turn: the proxy and pools in this process must keep answering. */
const HASHES_PER_TURN = 64;

export class TestAlphMiner {
  readonly report: AlphMinerReport = {
    loggedIn: false,
    loginError: null,
    extranonce: "",
    extranonces: [],
    difficulty: null,
    jobs: 0,
    setExtranonce: 0,
    hashes: 0,
    submitted: 0,
    accepted: 0,
    rejected: new Map(),
    disconnects: 0,
  };
  readonly done: Promise<AlphMinerReport>;
  private resolve: (r: AlphMinerReport) => void = () => {};
  private socket: Socket<undefined> | null = null;
  private job: MinerJob | null = null;
  private nextId = 3;
  private stopped = false;
  private draining = false;
  private readonly nonce = new Uint8Array(NONCE_BYTES);
  private readonly pending = new Set<number>();

  private constructor(private readonly opts: TestAlphMinerOptions) {
    this.done = new Promise((r) => {
      this.resolve = r;
    });
  }

  static start(opts: TestAlphMinerOptions): TestAlphMiner {
    const m = new TestAlphMiner(opts);
    void m.connect();
    return m;
  }

  /** Stops mining, waits for the answers to shares already submitted, and reports. */
  finish(): Promise<AlphMinerReport> {
    this.draining = true;
    if (this.pending.size === 0) this.stop();
    return this.done;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.socket?.end();
    this.resolve(this.report);
  }

  private async connect(): Promise<void> {
    const reader = new LineReader(
      (line) => this.onLine(line),
      () => this.stop(),
    );
    this.socket = await Bun.connect({
      hostname: "127.0.0.1",
      port: this.opts.port,
      socket: {
        data: (_s, chunk) => reader.push(chunk),
        close: () => {
          if (!this.stopped) this.report.disconnects++;
          this.stop();
        },
        error: () => this.stop(),
      },
    });
    this.send({ id: 1, method: "mining.subscribe", params: [this.opts.agent ?? "test-alph-miner/1.0"] });
    this.send({ id: 2, method: "mining.authorize", params: [this.opts.user, "x"] });
    this.mine();
  }

  private send(o: object): void {
    this.socket?.write(`${JSON.stringify(o)}\n`);
  }

  private onLine(line: string): void {
    const m = parseLine(line);
    if (m === null) return;
    if (m.method === null) this.onAnswer(m);
    else if (m.method === "mining.set_extranonce") {
      const e = Array.isArray(m.params) ? m.params[0] : null;
      if (typeof e === "string") {
        this.report.extranonce = e;
        this.report.extranonces.push(e);
        this.report.setExtranonce++;
      }
    } else if (m.method === "mining.set_difficulty") {
      const d = Array.isArray(m.params) ? m.params[0] : null;
      if (typeof d === "number") this.report.difficulty = d;
    } else if (m.method === "mining.notify" && Array.isArray(m.params)) this.onNotify(m.params);
  }

  private onNotify(templates: unknown[]): void {
    const t = templates[Math.floor(Math.random() * templates.length)] as Record<string, unknown>;
    if (typeof t.jobId !== "string" || typeof t.headerBlob !== "string") return;
    this.report.jobs++;
    this.job = {
      jobId: t.jobId,
      fromGroup: t.fromGroup as number,
      toGroup: t.toGroup as number,
      header: hexBytes(t.headerBlob),
      target:
        typeof t.targetBlob === "string" && t.targetBlob !== ""
          ? BigInt(`0x${t.targetBlob}`)
          : targetOfDifficulty(this.report.difficulty ?? 1),
      prefix: hexBytes(this.report.extranonce),
    };
    this.nonce.set(this.job.prefix, 0);
    this.nonce.set(randomBytes(NONCE_BYTES - this.job.prefix.length), this.job.prefix.length);
  }

  private onAnswer(m: Message): void {
    if (m.id === 2) {
      this.report.loggedIn = m.result === true;
      if (!this.report.loggedIn) {
        this.report.loginError = errorMessage(m.error) ?? "refused";
        this.stop();
      }
      return;
    }
    if (typeof m.id !== "number" || !this.pending.delete(m.id)) return;
    if (m.result === true && (m.error === null || m.error === undefined)) this.report.accepted++;
    else {
      const why = errorMessage(m.error) ?? "rejected";
      this.report.rejected.set(why, (this.report.rejected.get(why) ?? 0) + 1);
    }
    const max = this.opts.maxShares;
    if (max !== undefined && this.report.accepted + this.countRejected() >= max) this.stop();
    if (this.draining && this.pending.size === 0) this.stop();
  }

  private countRejected(): number {
    let n = 0;
    for (const v of this.report.rejected.values()) n += v;
    return n;
  }

  private mine(): void {
    if (this.stopped) return;
    const job = this.job;
    const max = this.opts.maxShares;
    if (job !== null && !this.draining && (max === undefined || this.report.submitted < max)) {
      for (let i = 0; i < HASHES_PER_TURN; i++) {
        this.bump(job.prefix.length);
        this.report.hashes++;
        const hash = powHash(this.nonce, job.header);
        const chain = chainOf(hash);
        if (chain.fromGroup !== job.fromGroup || chain.toGroup !== job.toGroup) continue;
        if (hashValue(hash) > job.target) continue;
        this.submit(job);
        break;
      }
    }
    setTimeout(() => this.mine(), 0);
  }

  /** The next nonce: the bytes after the prefix count up. */
  private bump(from: number): void {
    for (let i = NONCE_BYTES - 1; i >= from; i--) {
      const b = ((this.nonce[i] as number) + 1) & 0xff;
      this.nonce[i] = b;
      if (b !== 0) return;
    }
  }

  private submit(job: MinerJob): void {
    const nonce = Uint8Array.from(this.nonce);
    if (this.opts.sabotage === "outside-prefix") nonce[0] = (nonce[0] as number) ^ 0xff;
    const fromGroup = this.opts.sabotage === "wrong-chain" ? (job.fromGroup + 1) % 4 : job.fromGroup;
    const id = this.nextId++;
    this.pending.add(id);
    this.report.submitted++;
    this.send({
      id,
      method: "mining.submit",
      params: {
        jobId: job.jobId,
        fromGroup,
        toGroup: job.toGroup,
        nonce: Buffer.from(nonce).toString("hex"),
        worker: this.opts.user,
      },
    });
  }
}
