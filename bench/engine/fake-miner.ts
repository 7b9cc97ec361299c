/**
 * Load generator: many stratum miners on loopback that do not hash. Each subscribes, authorizes,
 * follows notify and submits shares with unique extranonce2/nonce values; a pool started with
 * `trustShares` accepts them, so the proxy's cost is what gets measured.
 */
import type { Socket } from "bun";

interface Miner {
  index: number;
  socket: Socket<Miner> | null;
  en2Size: number;
  jobId: string;
  ntime: string;
  /** the difficulty of the jobs it mines now (set_difficulty) */
  difficulty: number;
  /** performance.now() of its next share when it hashes at a fixed rate (Fleet.hashAt) */
  nextShareAt: number;
  /** set_difficulty messages that changed its difficulty: fee switches when fee pools differ */
  difficultyChanges: number;
  ready: boolean;
  pending: Map<number, number>;
  nextId: number;
  counter: number;
  partial: string;
}

export interface FleetOptions {
  port: number;
  count: number;
  user: (i: number) => string;
  /** several source addresses in 127.0.0.0/8 when one runs short of ports */
  sourceAddresses?: string[];
}

export class Fleet {
  readonly miners: Miner[] = [];
  answered = 0;
  accepted = 0;
  readonly latencies: number[] = [];
  recordLatency = false;
  private closed = false;

  constructor(private readonly opts: FleetOptions) {}

  /** Connects every miner, a batch at a time, and resolves when all have a job. */
  async connect(batch = 500): Promise<void> {
    for (let i = 0; i < this.opts.count; i += batch) {
      const n = Math.min(batch, this.opts.count - i);
      await Promise.all(Array.from({ length: n }, (_, k) => this.open(i + k)));
    }
    while (this.miners.some((m) => !m.ready) && !this.closed) await Bun.sleep(20);
  }

  private async open(index: number): Promise<void> {
    const m: Miner = {
      index,
      socket: null,
      en2Size: 0,
      jobId: "",
      ntime: "",
      difficulty: 1,
      nextShareAt: 0,
      difficultyChanges: 0,
      ready: false,
      pending: new Map(),
      nextId: 10,
      counter: 0,
      partial: "",
    };
    this.miners[index] = m;
    m.socket = await Bun.connect<Miner>({
      hostname: "127.0.0.1",
      port: this.opts.port,
      data: m,
      socket: {
        data: (s, chunk) => this.onData(s.data, chunk),
      },
    });
    m.socket.write(
      `{"id":1,"method":"mining.subscribe","params":["bench/1.0"]}\n{"id":2,"method":"mining.authorize","params":["${this.opts.user(index)}","x"]}\n`,
    );
  }

  private onData(m: Miner, chunk: Uint8Array): void {
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

  private onLine(m: Miner, line: string): void {
    const msg = JSON.parse(line) as {
      id: number | null;
      method?: string;
      params?: unknown[];
      result?: unknown;
    };
    if (msg.method === "mining.set_difficulty" && msg.params) {
      const d = Number(msg.params[0]);
      if (m.ready && d !== m.difficulty) m.difficultyChanges++;
      m.difficulty = d;
      // memoryless: the search at the new difficulty starts now
      m.nextShareAt = 0;
      return;
    }
    if (msg.method === "mining.notify" && msg.params) {
      m.jobId = msg.params[0] as string;
      m.ntime = msg.params[7] as string;
      m.ready = true;
      return;
    }
    if (msg.method !== undefined) return;
    if (msg.id === 1 && Array.isArray(msg.result)) {
      m.en2Size = msg.result[2] as number;
      return;
    }
    if (typeof msg.id === "number" && msg.id >= 10) {
      const t0 = m.pending.get(msg.id);
      if (t0 === undefined) return;
      m.pending.delete(msg.id);
      this.answered++;
      if (msg.result === true) this.accepted++;
      if (this.recordLatency) this.latencies.push(performance.now() - t0);
    }
  }

  /** One share from miner i; false when it has no job yet. */
  submit(i: number): boolean {
    const m = this.miners[i];
    if (m === undefined || !m.ready || m.socket === null) return false;
    const id = m.nextId++;
    const c = m.counter++;
    const en2 = (c >>> 16)
      .toString(16)
      .padStart(m.en2Size * 2, "0")
      .slice(-m.en2Size * 2);
    const nonce = ((c & 0xffff) * 65537).toString(16).padStart(8, "0").slice(-8);
    m.pending.set(id, performance.now());
    m.socket.write(
      `{"id":${id},"method":"mining.submit","params":["${this.opts.user(i)}","${m.jobId}","${en2}","${m.ntime}","${nonce}"]}\n`,
    );
    return true;
  }

  /**
   * Miners that hash at `difficultyPerSecond` (shares per second at difficulty 1): each finds its
   * next share after an exponential time with mean difficulty / rate, so that a pool with twice the
   * difficulty gets half the shares, as from a real device. Runs until `until` says stop.
   */
  async hashAt(difficultyPerSecond: number, until: () => boolean): Promise<void> {
    while (!until()) {
      const now = performance.now();
      for (let i = 0; i < this.miners.length; i++) {
        const m = this.miners[i] as Miner;
        if (!m.ready) continue;
        if (m.nextShareAt === 0) m.nextShareAt = now + this.interval(m, difficultyPerSecond);
        while (m.nextShareAt <= now) {
          this.submit(i);
          m.nextShareAt += this.interval(m, difficultyPerSecond);
        }
      }
      await Bun.sleep(2);
    }
  }

  private interval(m: Miner, difficultyPerSecond: number): number {
    return (-Math.log(1 - Math.random()) * m.difficulty * 1000) / difficultyPerSecond;
  }

  /** Miner i disconnects (a rig switched off); it submits nothing until it rejoins. */
  leave(i: number): void {
    const m = this.miners[i];
    if (m === undefined) return;
    m.ready = false;
    m.socket?.end();
    m.socket = null;
  }

  /** Miner i connects again as a new connection, under whatever name `user(i)` gives now. */
  async rejoin(i: number): Promise<void> {
    await this.open(i);
  }

  /** difficulty changes over every miner (fee-sockets.ts counts fee switches by them) */
  difficultyChanges(): number {
    return this.miners.reduce((n, m) => n + m.difficultyChanges, 0);
  }

  outstanding(i: number): number {
    return this.miners[i]?.pending.size ?? 0;
  }

  close(): void {
    this.closed = true;
    for (const m of this.miners) m.socket?.end();
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
