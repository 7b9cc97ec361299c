/**
 * The engine benchmarks (design.md budgets): memory per miner, added share latency, shares per
 * second of one port, fee accuracy over 100,000 shares. Each scenario is bounded in time.
 */
import { type Port, ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makePort } from "../../test/support/stratum/port-fixture.ts";
import { TestPool, type TestPoolOptions } from "../../test/support/stratum/test-pool.ts";
import { Fleet, percentile } from "./fake-miner.ts";
import { ProxyProcess } from "./proxy-process.ts";
import type { StallSummary } from "./stall-meter.ts";

/** One new job a second by default: harsher than real pools (every 30–60 s). */
const benchPoolOptions = (difficulty = 1, jobIntervalMs = 1000): TestPoolOptions => ({
  trustShares: true,
  difficulty,
  extranonce2Size: 8,
  jobIntervalMs,
  merkleBranches: 4,
});
const benchPool = (difficulty = 1, jobIntervalMs = 1000) =>
  TestPool.start(benchPoolOptions(difficulty, jobIntervalMs));

const portFor = (pool: { address: string }, mode: number, extra: Partial<Port> = {}): Port =>
  makePort({
    pool_address: pool.address,
    mode,
    proxy_addr: "farm",
    proxy_device: "bench",
    limit_connections: 65535,
    ...extra,
  });

/** The proxy in a mode, or a baseline of Bun alone (bare-child.ts): one socket a miner, or two. */
export type MemoryMode = "Pool" | "Efficient" | "bare Bun socket server" | "bare Bun relay";

export interface MemoryResult {
  mode: MemoryMode;
  miners: number;
  /** baselines: JavaScript state held per connection, allocated once (no garbage) */
  stateBytes: number;
  bytesPerMiner: number;
  /** the part of it that is live JavaScript heap after a forced GC (the rest: sockets, GC headroom) */
  heapBytesPerMiner: number;
  rssMiB: number;
}

/**
 * The memory scenario's pool sends a job every 3 s, beyond the 2-s grace in which a job a miner
 * left is kept for its late shares, and miners are measured after seven such jobs: what a lane
 * holds in a farm's steady state (real pools: a job every 30-60 s). With a job a second every job
 * would still be in its grace, which no real pool's pace gives.
 */
const MEMORY_JOB_INTERVAL_MS = 3_000;
const MEMORY_JOBS_BEFORE_MEASURING = 7;

const startMemoryTarget = (mode: MemoryMode, pool: TestPool, stateBytes: number): Promise<ProxyProcess> => {
  if (mode === "bare Bun socket server") return ProxyProcess.startBare(stateBytes);
  if (mode === "bare Bun relay") return ProxyProcess.startBare(stateBytes, pool.address);
  return ProxyProcess.start(portFor(pool, mode === "Pool" ? ProxyMode.POOL : ProxyMode.EFFICIENT));
};

/**
 * RSS and live heap per miner between 200 and `miners` miners that have each mined two shares.
 * `stateBytes` is for the baselines only: with the proxy's live heap per miner it shows what Bun
 * alone would take for that heap, held without the garbage the proxy makes around it.
 */
export async function memoryPerMiner(
  mode: MemoryMode,
  miners: number,
  stateBytes = 0,
): Promise<MemoryResult> {
  const pool = await benchPool(1, MEMORY_JOB_INTERVAL_MS);
  const bare = mode === "bare Bun socket server";
  const proxy = await startMemoryTarget(mode, pool, stateBytes);
  const warm = 200;
  const first = new Fleet({ port: proxy.port, count: warm, user: (i) => `w${i}.r${i}` });
  const rest = new Fleet({ port: proxy.port, count: miners - warm, user: (i) => `x${i}.r${i}` });
  try {
    // Every miner has mined a little (its device, hashrate rings and job table entries exist).
    const mine = async (f: Fleet) => {
      const target = f.answered + f.miners.length * 2;
      for (let i = 0; i < f.miners.length; i++) f.submit(i) && f.submit(i);
      while (f.answered < target) await Bun.sleep(20);
    };
    await first.connect();
    await mine(first);
    const before = await proxy.memory();
    if (process.env.SNAP) await proxy.snap(`${process.env.SNAP}-a.json`);
    await rest.connect();
    await mine(rest);
    await Bun.sleep(bare ? 500 : MEMORY_JOBS_BEFORE_MEASURING * MEMORY_JOB_INTERVAL_MS);
    const after = await proxy.memory();
    if (process.env.SNAP) await proxy.snap(`${process.env.SNAP}-b.json`);
    return {
      mode,
      miners,
      stateBytes,
      bytesPerMiner: Math.round((after.rss - before.rss) / (miners - warm)),
      heapBytesPerMiner: Math.round((after.heap - before.heap) / (miners - warm)),
      rssMiB: Math.round(after.rss / 2 ** 20),
    };
  } finally {
    first.close();
    rest.close();
    await proxy.stop();
    pool.stop();
  }
}

/** What `paced` needs of a load generator: this one or the families' (family-fleet.ts). */
export type PacedFleet = Pick<Fleet, "submit" | "latencies" | "recordLatency"> & {
  miners: { length: number };
};

/** perSecond shares spread over the fleet for `ms` after `warmMs`; the sorted round trips. */
export async function paced(
  fleet: PacedFleet,
  perSecond: number,
  ms: number,
  warmMs: number,
): Promise<number[]> {
  // small, frequent batches: bursts would measure queueing in the generator, not the proxy
  const tickMs = 2;
  const perTick = Math.max(1, Math.round((perSecond * tickMs) / 1000));
  let cursor = 0;
  const n = fleet.miners.length;
  const timer = setInterval(() => {
    for (let k = 0; k < perTick; k++) fleet.submit(cursor++ % n);
  }, tickMs);
  await Bun.sleep(warmMs);
  fleet.latencies.length = 0;
  fleet.recordLatency = true;
  await Bun.sleep(ms);
  clearInterval(timer);
  fleet.recordLatency = false;
  await Bun.sleep(200);
  return [...fleet.latencies].sort((a, b) => a - b);
}

export interface LatencyResult {
  sharesPerSecond: number;
  jobIntervalMs: number;
  directP50: number;
  directP99: number;
  proxyP50: number;
  proxyP99: number;
  addedP50: number;
  addedP99: number;
  samples: number;
  /** the proxy's event-loop stalls while the shares through it were timed */
  proxyStalls: StallSummary;
}

/**
 * Straight to the pool, then through an Efficient port, in the same run. Every new job makes each
 * session build and send a notify, and shares arriving meanwhile wait: `jobIntervalMs` sets how
 * often that happens.
 */
export async function addedLatency(
  perSecond = 5000,
  ms = 5000,
  jobIntervalMs = 1000,
): Promise<LatencyResult> {
  const pool = await ProxyProcess.startPool(benchPoolOptions(1, jobIntervalMs));
  const proxy = await ProxyProcess.start(portFor(pool, ProxyMode.EFFICIENT));
  const direct = new Fleet({ port: pool.port, count: 100, user: (i) => `d${i}.r` });
  const via = new Fleet({ port: proxy.port, count: 100, user: (i) => `p${i}.r` });
  try {
    await direct.connect();
    const d = await paced(direct, perSecond, ms, 1000);
    direct.close();
    await via.connect();
    const warmed = paced(via, perSecond, ms, 1000);
    await Bun.sleep(1000);
    proxy.stallsStart();
    const p = await warmed;
    const proxyStalls = await proxy.stalls();
    const r = (x: number) => Math.round(x * 1000) / 1000;
    return {
      sharesPerSecond: perSecond,
      jobIntervalMs,
      directP50: r(percentile(d, 50)),
      directP99: r(percentile(d, 99)),
      proxyP50: r(percentile(p, 50)),
      proxyP99: r(percentile(p, 99)),
      addedP50: r(percentile(p, 50) - percentile(d, 50)),
      addedP99: r(percentile(p, 99) - percentile(d, 99)),
      samples: p.length,
      proxyStalls,
    };
  } finally {
    direct.close();
    via.close();
    await proxy.stop();
    await pool.stop();
  }
}

/**
 * Keeps every miner at `depth` outstanding shares until `until` says stop. With `jitter`, each
 * miner skips a round at random, as real miners find shares at random times; without it the
 * generator's miners move in lockstep.
 */
async function saturate(fleet: Fleet, depth: number, until: () => boolean, jitter = false): Promise<void> {
  const n = fleet.miners.length;
  while (!until()) {
    for (let i = 0; i < n; i++) {
      if (jitter && Math.random() < 0.5) continue;
      while (fleet.outstanding(i) < depth && fleet.submit(i));
    }
    await Bun.sleep(1);
  }
}

export interface ThroughputResult {
  mode: "Pool" | "Efficient";
  directSharesPerSecond: number;
  proxySharesPerSecond: number;
}

export async function sharesPerSecond(mode: "Pool" | "Efficient", ms = 5000): Promise<ThroughputResult> {
  const pool = await benchPool();
  const proxy = await ProxyProcess.start(
    portFor(pool, mode === "Pool" ? ProxyMode.POOL : ProxyMode.EFFICIENT),
  );
  const direct = new Fleet({ port: pool.port, count: 200, user: (i) => `d${i}.r` });
  const via = new Fleet({ port: proxy.port, count: 200, user: (i) => `p${i}.r` });
  try {
    const rate = async (fleet: Fleet) => {
      await fleet.connect();
      const start = fleet.answered;
      const t0 = performance.now();
      await saturate(fleet, 16, () => performance.now() - t0 >= ms);
      return Math.round(((fleet.answered - start) * 1000) / (performance.now() - t0));
    };
    const d = await rate(direct);
    direct.close();
    const p = await rate(via);
    return { mode, directSharesPerSecond: d, proxySharesPerSecond: p };
  } finally {
    direct.close();
    via.close();
    await proxy.stop();
    pool.stop();
  }
}

export interface FeeResult {
  shares: number;
  configured: number;
  achievedAtPools: number;
  achievedReported: number;
  errorPercentagePoints: number;
  feeSessions: number;
}

/**
 * 200 miners that hash at a fixed rate (ten shares a second each at the main pool's difficulty, five
 * at the fee pool's) until `shares` are answered.
 */
export async function feeAccuracy(shares = 100_000, ratio = 0.02): Promise<FeeResult> {
  const main = await benchPool(1);
  // a fee pool with twice the difficulty: the split must hold in work, not in share count
  const fee = await benchPool(2);
  const proxy = await ProxyProcess.start(
    portFor(main, ProxyMode.EFFICIENT, { wallets: [feeWallet(1, "feewallet", fee.address, ratio)] }),
  );
  const fleet = new Fleet({ port: proxy.port, count: 200, user: (i) => `m${i}.r` });
  try {
    await fleet.connect();
    await fleet.hashAt(10, () => fleet.answered >= shares);
    while (fleet.miners.some((_, i) => fleet.outstanding(i) > 0)) await Bun.sleep(10);
    const feeWork = fee.workerWork("feewallet.fee");
    const achievedAtPools = feeWork / (main.totalWork() + feeWork);
    const stats = await proxy.stats();
    return {
      shares: fleet.answered,
      configured: ratio,
      achievedAtPools: Math.round(achievedAtPools * 1e6) / 1e6,
      achievedReported: Math.round(stats.fee.achieved * 1e6) / 1e6,
      errorPercentagePoints: Math.round((achievedAtPools - ratio) * 100 * 1e4) / 1e4,
      feeSessions: stats.feeSessions,
    };
  } finally {
    fleet.close();
    await proxy.stop();
    main.stop();
    fee.stop();
  }
}
