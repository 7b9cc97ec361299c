/**
 * The engine budgets of design.md measured for one protocol family (a FamilyKit): memory per miner
 * in a mode, the added share round trip at a fixed share rate, and the fee achieved at the pools.
 * The same method as scenarios.ts (the Bitcoin family): the proxy in its own process, pools and
 * miners in this one.
 */
import { type Port, ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makePort } from "../../test/support/stratum/port-fixture.ts";
import { percentile } from "./fake-miner.ts";
import { ProtocolFleet } from "./family-fleet.ts";
import type { BenchPool, FamilyKit } from "./family-kit.ts";
import { ProxyProcess } from "./proxy-process.ts";
import { paced } from "./scenarios.ts";

export type BenchMode = "Efficient" | "Pool";
const MODE_CODE: Record<BenchMode, number> = { Efficient: ProxyMode.EFFICIENT, Pool: ProxyMode.POOL };

const portFor = (kit: FamilyKit, pool: BenchPool, mode: BenchMode, extra: Partial<Port> = {}): Port =>
  makePort({
    pool_address: pool.address,
    currency: kit.currency,
    category: kit.category,
    mode: MODE_CODE[mode],
    proxy_addr: "farm",
    proxy_device: "bench",
    limit_connections: 65535,
    ...extra,
  });

const fleet = (kit: FamilyKit, port: number, count: number, prefix: string) =>
  new ProtocolFleet({ port, count, user: (i) => `${prefix}${i}.r${i}`, protocol: kit.protocol });

export interface FamilyMemory {
  mode: BenchMode;
  miners: number;
  bytesPerMiner: number;
  /** the part of it that is live JavaScript heap after a forced GC (the rest: sockets, GC headroom) */
  heapBytesPerMiner: number;
  rssMiB: number;
}

/**
 * As in the Bitcoin family's memory scenario (scenarios.ts), the pools send jobs at a pace beyond the
 * grace in which a miner keeps a job it left for its late shares (5 s, stratum/miner-jobs.ts), and
 * the miners are measured after four of them: the jobs a miner holds at any real pool's pace slower
 * than one job per 5 s (ETC a block every 13 s, Monero 2 min, Zcash 75 s). With a job a second,
 * as the latency scenario sends, every job would still be in its grace; Kaspa's and Alephium's
 * pools do send about that often, and their earlier 1-s figures stand for that case.
 */
const MEMORY_JOB_INTERVAL_MS = 6_000;
const MEMORY_JOBS_BEFORE_MEASURING = 4;

/**
 * RSS growth per miner between 200 miners and `miners`, each having had two shares answered and
 * then MEMORY_JOBS_BEFORE_MEASURING jobs. With SNAP=/path/name the proxy writes heap snapshots
 * name-a.json (200 miners) and name-b.json (all), as in memory.ts.
 */
export async function familyMemory(kit: FamilyKit, mode: BenchMode, miners: number): Promise<FamilyMemory> {
  const pool = await kit.startPool({ difficulty: kit.difficulty, jobIntervalMs: MEMORY_JOB_INTERVAL_MS });
  const proxy = await ProxyProcess.start(portFor(kit, pool, mode));
  const warm = 200;
  const first = fleet(kit, proxy.port, warm, "w");
  const rest = fleet(kit, proxy.port, miners - warm, "x");
  try {
    const mine = async (f: ProtocolFleet) => {
      const target = f.answered + f.miners.length * 2;
      // 50 miners at a time: all at once would queue 256 miners' shares on one Pool-mode session in
      // one turn, and Equihash's 2.8 KB shares pass the writer's 512 KB bound, which closes it
      for (let i = 0; i < f.miners.length; i++) {
        f.submit(i) && f.submit(i);
        if (i % 50 === 49) await Bun.sleep(5);
      }
      while (f.answered < target) await Bun.sleep(20);
    };
    await first.connect();
    await mine(first);
    const before = await proxy.memory();
    if (process.env.SNAP) await proxy.snap(`${process.env.SNAP}-a.json`);
    await rest.connect();
    await mine(rest);
    await Bun.sleep(MEMORY_JOBS_BEFORE_MEASURING * MEMORY_JOB_INTERVAL_MS);
    const after = await proxy.memory();
    if (process.env.SNAP) await proxy.snap(`${process.env.SNAP}-b.json`);
    return {
      mode,
      miners,
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

export interface FamilyLatency {
  mode: BenchMode;
  sharesPerSecond: number;
  directP50: number;
  directP99: number;
  proxyP50: number;
  proxyP99: number;
  addedP50: number;
  addedP99: number;
  samples: number;
  /** every share through the port in the run, warm-up included, and how many the pool accepted */
  answered: number;
  accepted: number;
}

/** 100 miners straight to the pool, then 100 through the port, `perSecond` shares for `ms` each. */
export async function familyLatency(
  kit: FamilyKit,
  mode: BenchMode,
  perSecond = 5000,
  ms = 5000,
): Promise<FamilyLatency> {
  const pool = await kit.startPool({ difficulty: kit.difficulty, jobIntervalMs: 1000 });
  const proxy = await ProxyProcess.start(portFor(kit, pool, mode));
  const direct = fleet(kit, pool.port, 100, "d");
  const via = fleet(kit, proxy.port, 100, "p");
  try {
    await direct.connect();
    const d = await paced(direct, perSecond, ms, 1000);
    direct.close();
    await via.connect();
    const p = await paced(via, perSecond, ms, 1000);
    const r = (x: number) => Math.round(x * 1000) / 1000;
    return {
      mode,
      sharesPerSecond: perSecond,
      directP50: r(percentile(d, 50)),
      directP99: r(percentile(d, 99)),
      proxyP50: r(percentile(p, 50)),
      proxyP99: r(percentile(p, 99)),
      addedP50: r(percentile(p, 50) - percentile(d, 50)),
      addedP99: r(percentile(p, 99) - percentile(d, 99)),
      samples: p.length,
      // a share the pool refused would make the round trip meaningless; reported, not asserted
      answered: via.answered,
      accepted: via.accepted,
    };
  } finally {
    direct.close();
    via.close();
    await proxy.stop();
    pool.stop();
  }
}

export interface FamilyFee {
  mode: BenchMode;
  shares: number;
  accepted: number;
  configured: number;
  achievedAtPools: number;
  achievedReported: number;
  errorPercentagePoints: number;
}

/**
 * 200 miners hashing at ten shares a second at the main pool's difficulty (five at the fee pool's,
 * twice it) until `shares` are answered; the split is read from the work each pool credited.
 */
export async function familyFee(
  kit: FamilyKit,
  mode: BenchMode,
  shares = 100_000,
  ratio = 0.02,
): Promise<FamilyFee> {
  const main = await kit.startPool({ difficulty: kit.difficulty, jobIntervalMs: 1000 });
  const fee = await kit.startPool({ difficulty: kit.difficulty * 2, jobIntervalMs: 1000 });
  const wallets = [feeWallet(1, "feewallet", fee.address, ratio)];
  const proxy = await ProxyProcess.start(portFor(kit, main, mode, { wallets }));
  const miners = fleet(kit, proxy.port, 200, "m");
  try {
    await miners.connect();
    await miners.hashAt(10 * kit.difficulty, () => miners.answered >= shares);
    while (miners.miners.some((_, i) => miners.outstanding(i) > 0)) await Bun.sleep(10);
    // the fee pool sees nothing but fee shares, so its whole tally is the fee wallet's
    const feeWork = fee.totalWork();
    const achievedAtPools = feeWork / (main.totalWork() + feeWork);
    const stats = await proxy.stats();
    return {
      mode,
      shares: miners.answered,
      accepted: miners.accepted,
      configured: ratio,
      achievedAtPools: Math.round(achievedAtPools * 1e6) / 1e6,
      achievedReported: Math.round(stats.fee.achieved * 1e6) / 1e6,
      errorPercentagePoints: Math.round((achievedAtPools - ratio) * 100 * 1e4) / 1e4,
    };
  } finally {
    miners.close();
    await proxy.stop();
    main.stop();
    fee.stop();
  }
}
