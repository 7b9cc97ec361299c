/**
 * An Equihash miner for tests that really solves, with the reduced Equihash parameters of the tests
 * (equihash.ts TEST_PARAMS, Wagner's algorithm). It speaks ZIP 301 as Zcash miners do:
 * mining.subscribe [agent, null, host, port], optionally mining.extranonce.subscribe,
 * mining.authorize; it takes mining.set_target (for later jobs), mining.notify and
 * mining.set_extranonce (the new NONCE_1 from the next job on), and submits [worker, jobId, time,
 * NONCE_2, solution with its compactSize length] for every solution whose block hash meets the
 * target. One share is in flight at a time.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Socket } from "bun";
import { errorMessage, LineReader, parseEnvelope } from "../ethereum/json-lines.ts";
import { solve, TEST_PARAMS, withLength } from "./equihash.ts";
import { type HeaderFields, hashValue, headerBytes } from "./header.ts";

export interface TestEqMinerOptions {
  port: number;
  user: string;
  /** stop after this many answered shares; unbounded when absent (finish() stops it) */
  maxShares?: number;
  /** send mining.extranonce.subscribe (default true) */
  extranonceSubscribe?: boolean;
}

export interface TestEqMinerResult {
  loggedIn: boolean;
  accepted: number;
  rejected: Map<string, number>;
  /** mining.set_extranonce messages received */
  setExtranonce: number;
  /** every NONCE_1 the miner mined under, in order */
  nonce1s: string[];
  disconnects: number;
}

interface Job extends HeaderFields {
  id: string;
  target: bigint;
  nonce1: string;
}

export class TestEqMiner {
  readonly result: TestEqMinerResult = {
    loggedIn: false,
    accepted: 0,
    rejected: new Map(),
    setExtranonce: 0,
    nonce1s: [],
    disconnects: 0,
  };
  readonly done: Promise<TestEqMinerResult>;
  private resolve: (r: TestEqMinerResult) => void = () => {};
  private socket: Socket<undefined> | null = null;
  private nonce1 = "";
  private nextNonce1: string | null = null;
  private target: bigint | null = null;
  private job: Job | null = null;
  /** NONCE_2 counter, from a random start so two miners under one NONCE_1 do not repeat work */
  private counter = Math.floor(Math.random() * 2 ** 40);
  /** solutions of the last nonce still to be tried against the target */
  private queue: Array<{ job: Job; nonce2: string; solution: Uint8Array; header: Uint8Array }> = [];
  private inFlight = false;
  private looping = false;
  private stopped = false;
  private finishing = false;
  private answered = 0;
  private nextId = 10;
  private readonly reader = new LineReader(
    (line) => this.onLine(line),
    () => this.socket?.end(),
  );

  private constructor(private readonly opts: TestEqMinerOptions) {
    this.done = new Promise((r) => {
      this.resolve = r;
    });
  }

  static start(opts: TestEqMinerOptions): TestEqMiner {
    const m = new TestEqMiner(opts);
    void m.connect();
    return m;
  }

  /** Stops solving, waits for a share still in flight, closes the socket and resolves. */
  async finish(): Promise<TestEqMinerResult> {
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
    this.send(1, "mining.subscribe", ["eqtest/1.0", null, "127.0.0.1", String(this.opts.port)]);
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
      if (m.id === 1 && Array.isArray(m.result) && typeof m.result[1] === "string") this.nonce1 = m.result[1];
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
        if (typeof m.params[0] === "string") this.nextNonce1 = m.params[0];
        return;
      case "mining.notify": {
        const [id, version, prevHash, merkleRoot, reserved, time, bits] = m.params;
        const fields = [version, prevHash, merkleRoot, reserved, time, bits];
        if (typeof id !== "string" || !fields.every((f) => typeof f === "string") || this.target === null)
          return;
        if (this.nextNonce1 !== null) {
          this.nonce1 = this.nextNonce1;
          this.nextNonce1 = null;
        }
        const [v, p, mr, r, t, b] = fields as string[];
        this.job = {
          id,
          version: v as string,
          prevHash: p as string,
          merkleRoot: mr as string,
          reserved: r as string,
          time: t as string,
          bits: b as string,
          target: this.target,
          nonce1: this.nonce1,
        };
        this.queue = [];
        if (this.result.nonce1s.at(-1) !== this.nonce1) this.result.nonce1s.push(this.nonce1);
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

  /** Solves one NONCE_2 per event-loop turn until a solution's block hash meets the target. */
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
    while (this.queue.length > 0) {
      const s = this.queue.shift();
      if (s === undefined || s.job !== job) continue;
      const wire = withLength(s.solution);
      if (hashValue(s.header, wire) <= job.target) {
        this.inFlight = true;
        this.send(this.nextId++, "mining.submit", [
          this.opts.user,
          job.id,
          job.time,
          s.nonce2,
          bytesToHex(wire),
        ]);
        return;
      }
    }
    const width = 64 - job.nonce1.length;
    const nonce2 = (this.counter++).toString(16).padStart(width, "0").slice(-width);
    const header = headerBytes(job, job.nonce1, nonce2);
    for (const solution of solve(TEST_PARAMS, header)) this.queue.push({ job, nonce2, solution, header });
    this.looping = true;
    setImmediate(() => {
      this.looping = false;
      this.mine();
    });
  }
}
