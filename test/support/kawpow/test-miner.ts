/**
 * A KawPow miner for tests that really searches nonces, for the test-only stand-in rule of
 * stand-in-pow.ts (not ProgPoW: see there). It speaks as kawpowminer does: mining.subscribe [agent,
 * null, host, port], optionally mining.extranonce.subscribe, mining.authorize; it takes
 * mining.set_target, mining.notify and mining.set_extranonce (the new prefix from the next job on),
 * and submits [worker, jobId, 0x nonce, 0x header hash, 0x mix hash] with every nonce beginning
 * with its prefix. One share is in flight at a time.
 */
import type { Socket } from "bun";
import { errorMessage, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { standInHash } from "./stand-in-pow.ts";

export interface TestKawMinerOptions {
  port: number;
  user: string;
  /** stop after this many answered shares; unbounded when absent (finish() stops it) */
  maxShares?: number;
  /** send mining.extranonce.subscribe (default true) */
  extranonceSubscribe?: boolean;
}

export interface TestKawMinerResult {
  loggedIn: boolean;
  accepted: number;
  rejected: Map<string, number>;
  /** mining.set_extranonce messages received */
  setExtranonce: number;
  /** every prefix the miner mined under, in order */
  prefixes: string[];
  disconnects: number;
}

interface Job {
  id: string;
  header: string;
  target: bigint;
  prefix: string;
}

/** Hashes per event-loop turn: sha3 is cheap, and other sockets on this thread need turns too. */
const HASHES_PER_TURN = 200;

export class TestKawMiner {
  readonly result: TestKawMinerResult = {
    loggedIn: false,
    accepted: 0,
    rejected: new Map(),
    setExtranonce: 0,
    prefixes: [],
    disconnects: 0,
  };
  readonly done: Promise<TestKawMinerResult>;
  private resolve: (r: TestKawMinerResult) => void = () => {};
  private socket: Socket<undefined> | null = null;
  private prefix = "";
  private nextPrefix: string | null = null;
  private target: bigint | null = null;
  private job: Job | null = null;
  /**
   * Where the nonce search starts: at random in 52 bits, as GPU miners start theirs, so that two
   * miners under the same prefix (a pool that gives none) do not walk the same nonces on a job.
   */
  private counter = Math.floor(Math.random() * 2 ** 52);
  private inFlight = false;
  /** a search turn is scheduled: it reads the current job itself */
  private looping = false;
  private stopped = false;
  private finishing = false;
  private answered = 0;
  private nextId = 10;
  private readonly reader = new LineReader(
    (line) => this.onLine(line),
    () => this.socket?.end(),
  );

  private constructor(private readonly opts: TestKawMinerOptions) {
    this.done = new Promise((r) => {
      this.resolve = r;
    });
  }

  static start(opts: TestKawMinerOptions): TestKawMiner {
    const m = new TestKawMiner(opts);
    void m.connect();
    return m;
  }

  /**
   * Stops searching, waits for the answer to a share still in flight (so the miner's count and the
   * pools' agree), closes the socket and resolves with what happened.
   */
  async finish(): Promise<TestKawMinerResult> {
    this.finishing = true;
    while (this.inFlight && !this.stopped) await Bun.sleep(5);
    this.stop();
    return this.result;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.socket?.end();
    this.resolve(this.result);
  }

  private async connect(): Promise<void> {
    this.socket = await Bun.connect({
      hostname: "127.0.0.1",
      port: this.opts.port,
      socket: {
        data: (_s, d) => this.reader.push(d),
        close: () => {
          if (!this.stopped) this.result.disconnects++;
          this.stop();
        },
        error: () => this.stop(),
      },
    });
    this.send(1, "mining.subscribe", ["kawtest/1.0", null, "127.0.0.1", String(this.opts.port)]);
    if (this.opts.extranonceSubscribe !== false) this.send(2, "mining.extranonce.subscribe", []);
    this.send(3, "mining.authorize", [this.opts.user, "x"]);
  }

  private send(id: number, method: string, params: unknown[]): void {
    this.socket?.write(`${JSON.stringify({ id, method, params })}\n`);
  }

  private onLine(line: string): void {
    const m = parseEnvelope(line);
    if (m === null) return;
    if (m.method === null) {
      if (m.id === 1 && Array.isArray(m.result) && typeof m.result[1] === "string") this.prefix = m.result[1];
      else if (m.id === 3) {
        this.result.loggedIn = m.result === true;
        this.mine();
      } else if (typeof m.id === "number" && m.id >= 10)
        this.onAnswer(m.result === true, errorMessage(m.error));
      return;
    }
    switch (m.method) {
      case "mining.set_target":
        if (typeof m.params[0] === "string") this.target = BigInt(`0x${m.params[0]}`);
        return;
      case "mining.set_extranonce":
        this.result.setExtranonce++;
        if (typeof m.params[0] === "string") this.nextPrefix = m.params[0];
        return;
      case "mining.notify": {
        const [id, header, , target] = m.params;
        if (typeof id !== "string" || typeof header !== "string") return;
        if (this.nextPrefix !== null) {
          this.prefix = this.nextPrefix;
          this.nextPrefix = null;
        }
        const t = typeof target === "string" ? BigInt(`0x${target}`) : this.target;
        if (t === null) return;
        this.job = { id, header, target: t, prefix: this.prefix };
        if (this.result.prefixes.at(-1) !== this.prefix) this.result.prefixes.push(this.prefix);
        this.mine();
        return;
      }
    }
  }

  private onAnswer(ok: boolean, error: string | null): void {
    this.inFlight = false;
    this.answered++;
    if (ok) this.result.accepted++;
    else {
      const why = error ?? "rejected";
      this.result.rejected.set(why, (this.result.rejected.get(why) ?? 0) + 1);
    }
    if (this.opts.maxShares !== undefined && this.answered >= this.opts.maxShares) {
      this.stop();
      return;
    }
    this.mine();
  }

  /** Searches nonces on the current job a few hundred per turn until one meets the target. */
  private mine(): void {
    if (
      this.looping ||
      this.stopped ||
      this.finishing ||
      this.inFlight ||
      this.job === null ||
      !this.result.loggedIn
    )
      return;
    const job = this.job;
    const width = 16 - job.prefix.length;
    for (let i = 0; i < HASHES_PER_TURN; i++) {
      const nonce = job.prefix + (this.counter++).toString(16).padStart(width, "0").slice(-width);
      const pow = standInHash(job.header, nonce);
      if (pow.final <= job.target) {
        this.inFlight = true;
        this.send(this.nextId++, "mining.submit", [
          this.opts.user,
          job.id,
          `0x${nonce}`,
          `0x${job.header}`,
          `0x${pow.mix}`,
        ]);
        return;
      }
    }
    this.looping = true;
    setImmediate(() => {
      this.looping = false;
      this.mine();
    });
  }
}
