/**
 * Load generator for any protocol family: many miners on loopback that speak a family's stratum
 * dialect (a `MinerProtocol`) without hashing, against a pool that trusts shares, so the proxy's
 * cost is what gets measured. The Bitcoin generator (fake-miner.ts) predates it and stays as it is,
 * so the Bitcoin figures remain comparable with earlier runs.
 */
import type { Socket } from "bun";

/** One JSON-RPC line as the fleet reads it; each dialect picks the fields it knows. */
export interface WireMessage {
  id?: unknown;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

export interface ProtoMiner {
  index: number;
  user: string;
  socket: Socket<ProtoMiner> | null;
  /** true once it has a job to submit shares for */
  ready: boolean;
  /** the difficulty of the job it mines now, in the dialect's own units */
  difficulty: number;
  /** performance.now() of its next share when it hashes at a fixed rate */
  nextShareAt: number;
  /** the dialect's per-miner state (job id, extranonce, rpc id, ...) */
  state: Record<string, string>;
  pending: Map<number, number>;
  nextId: number;
  counter: number;
  partial: string;
}

/** Ids below this are the dialect's login exchange; share ids start here. */
export const FIRST_SHARE_ID = 10;

export interface MinerProtocol {
  /** the lines a miner sends once connected (login, subscribe, ...) */
  hello(m: ProtoMiner): string;
  /**
   * Handles a pool or proxy message that is not a share answer: login results, jobs, difficulty.
   * A change of difficulty must reset `nextShareAt` (the search at the new difficulty starts now).
   */
  onMessage(m: ProtoMiner, msg: WireMessage): void;
  /** a protocol-correct, unique share for the miner's current job, without hashing */
  share(m: ProtoMiner, id: number): string;
}

export interface ProtocolFleetOptions {
  port: number;
  count: number;
  user: (i: number) => string;
  protocol: MinerProtocol;
}

export class ProtocolFleet {
  readonly miners: ProtoMiner[] = [];
  answered = 0;
  accepted = 0;
  readonly latencies: number[] = [];
  recordLatency = false;
  private closed = false;

  constructor(private readonly opts: ProtocolFleetOptions) {}

  /** Connects every miner, a batch at a time, and resolves when all have a job. */
  async connect(batch = 500): Promise<void> {
    for (let i = 0; i < this.opts.count; i += batch) {
      const n = Math.min(batch, this.opts.count - i);
      await Promise.all(Array.from({ length: n }, (_, k) => this.open(i + k)));
    }
    while (this.miners.some((m) => !m.ready) && !this.closed) await Bun.sleep(20);
  }

  private async open(index: number): Promise<void> {
    const m: ProtoMiner = {
      index,
      user: this.opts.user(index),
      socket: null,
      ready: false,
      difficulty: 1,
      nextShareAt: 0,
      state: {},
      pending: new Map(),
      nextId: FIRST_SHARE_ID,
      counter: 0,
      partial: "",
    };
    this.miners.push(m);
    m.socket = await Bun.connect<ProtoMiner>({
      hostname: "127.0.0.1",
      port: this.opts.port,
      data: m,
      socket: { data: (s, chunk) => this.onData(s.data, chunk) },
    });
    m.socket.write(this.opts.protocol.hello(m));
  }

  private onData(m: ProtoMiner, chunk: Uint8Array): void {
    const text = m.partial + Buffer.from(chunk).toString("latin1");
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      this.onLine(m, text.slice(start, nl));
      start = nl + 1;
    }
    m.partial = text.slice(start);
  }

  private onLine(m: ProtoMiner, line: string): void {
    const msg = JSON.parse(line) as WireMessage;
    const t0 = typeof msg.id === "number" && msg.method === undefined ? m.pending.get(msg.id) : undefined;
    if (t0 === undefined) {
      this.opts.protocol.onMessage(m, msg);
      return;
    }
    m.pending.delete(msg.id as number);
    this.answered++;
    // true (Bitcoin, ES1) or {status: "OK"} (CryptoNote); a refusal carries an error or false
    if ((msg.error === null || msg.error === undefined) && msg.result !== false && msg.result != null)
      this.accepted++;
    if (this.recordLatency) this.latencies.push(performance.now() - t0);
  }

  /** One share from miner i; false when it has no job yet. */
  submit(i: number): boolean {
    const m = this.miners[i];
    if (m === undefined || !m.ready || m.socket === null) return false;
    const id = m.nextId++;
    const line = this.opts.protocol.share(m, id);
    m.counter++;
    m.pending.set(id, performance.now());
    m.socket.write(line);
    return true;
  }

  /**
   * Miners that hash at `difficultyPerSecond` (shares per second at difficulty 1, in the dialect's
   * units): each finds its next share after an exponential time with mean difficulty / rate, so a
   * pool with twice the difficulty gets half the shares, as from a real device (Fleet.hashAt).
   */
  async hashAt(difficultyPerSecond: number, until: () => boolean): Promise<void> {
    while (!until()) {
      const now = performance.now();
      for (let i = 0; i < this.miners.length; i++) {
        const m = this.miners[i] as ProtoMiner;
        if (!m.ready) continue;
        if (m.nextShareAt === 0) m.nextShareAt = now + interval(m, difficultyPerSecond);
        while (m.nextShareAt <= now) {
          this.submit(i);
          m.nextShareAt += interval(m, difficultyPerSecond);
        }
      }
      await Bun.sleep(2);
    }
  }

  outstanding(i: number): number {
    return this.miners[i]?.pending.size ?? 0;
  }

  close(): void {
    this.closed = true;
    for (const m of this.miners) m.socket?.end();
  }
}

const interval = (m: ProtoMiner, difficultyPerSecond: number): number =>
  (-Math.log(1 - Math.random()) * m.difficulty * 1000) / difficultyPerSecond;
