/**
 * Objects the proxy makes per miner (Bitcoin family) for a login, a share and a pool job, by JSC type
 * (allocation-count.ts): the garbage that leaves allocator pages partly used (docs/benchmarks.md,
 * "What Bun alone takes for the same live heap"). Each step is counted in small windows, and a
 * window in which a collection ran is dropped and counted again.
 * Usage: bun bench/engine/allocations.ts [Pool|Efficient] [windows=8] [miners per window=100]
 */
import { ProxyMode } from "../../appliance/domain/port.ts";
import { makePort } from "../../test/support/stratum/port-fixture.ts";
import { TestPool } from "../../test/support/stratum/test-pool.ts";
import { Fleet } from "./fake-miner.ts";
import { ProxyProcess } from "./proxy-process.ts";

const mode = process.argv[2] === "Pool" ? "Pool" : "Efficient";
const windows = Number(process.argv[3] ?? 8);
const perWindow = Number(process.argv[4] ?? 100);
/** a window in which the proxy collected is counted again, this many times at most */
const MAX_TRIES = 6;

const pool = await TestPool.start({
  trustShares: true,
  difficulty: 1,
  extranonce2Size: 8,
  // jobs only when a step sends one
  jobIntervalMs: 3_600_000,
  merkleBranches: 4,
});
const proxy = await ProxyProcess.start(
  makePort({
    pool_address: pool.address,
    mode: mode === "Pool" ? ProxyMode.POOL : ProxyMode.EFFICIENT,
    proxy_addr: "farm",
    proxy_device: "bench",
    limit_connections: 65535,
  }),
);

/** Every miner of `f` submits one share; resolves when all are answered. */
async function shareEach(f: Fleet): Promise<void> {
  const target = f.answered + f.miners.length;
  for (let i = 0; i < f.miners.length; i++) f.submit(i);
  while (f.answered < target) await Bun.sleep(5);
}

interface Tally {
  made: Record<string, number>;
  miners: number;
  dropped: number;
}

/**
 * What an empty window counts: reading the counts makes objects of its own (a result object with a
 * key per type), which every window subtracts. The least of a few empty windows, per type.
 */
async function countingOverhead(): Promise<Record<string, number>> {
  const least: Record<string, number> = {};
  for (let k = 0; k < 5; k++) {
    await proxy.countStart();
    const r = await proxy.count();
    if (r.collected) continue;
    for (const type of new Set([...Object.keys(least), ...Object.keys(r.made)]))
      least[type] = Math.min(least[type] ?? Number.POSITIVE_INFINITY, r.made[type] ?? 0);
  }
  return least;
}

/** Counts `step` over `windows` collection-free windows; `step` returns the miners it served. */
async function count(step: () => Promise<number>): Promise<Tally> {
  const tally: Tally = { made: {}, miners: 0, dropped: 0 };
  for (let w = 0; w < windows; w++) {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      await proxy.countStart();
      const miners = await step();
      const r = await proxy.count();
      if (r.collected) {
        tally.dropped++;
        continue;
      }
      for (const [type, n] of Object.entries(r.made))
        tally.made[type] = (tally.made[type] ?? 0) + Math.max(0, n - (overhead[type] ?? 0));
      tally.miners += miners;
      break;
    }
  }
  return tally;
}

function report(step: string, t: Tally): void {
  if (t.miners === 0) {
    console.log(`${step}: every window saw a collection (${t.dropped}); use fewer miners a window`);
    return;
  }
  const rows = Object.entries(t.made)
    .map(([type, n]) => [type, n / t.miners] as const)
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, n]) => s + n, 0);
  console.log(
    `${step}: ${total.toFixed(1)} objects a miner (${t.miners} miners in windows without a collection, ${t.dropped} windows dropped)`,
  );
  for (const [type, n] of rows.slice(0, 14)) console.log(`  ${type.padEnd(28)} ${n.toFixed(2)}`);
}

// Warm-up: the paths are compiled, and the lane and device tables have grown, before counting.
const warm = new Fleet({ port: proxy.port, count: 300, user: (i) => `w${i}.r${i}` });
await warm.connect();
for (let r = 0; r < 5; r++) await shareEach(warm);
for (let r = 0; r < 3; r++) {
  pool.newJob();
  await Bun.sleep(300);
}

const overhead = await countingOverhead();
const fleets: Fleet[] = [];
let serial = 0;
const logins = await count(async () => {
  const f = new Fleet({ port: proxy.port, count: perWindow, user: (i) => `x${serial}_${i}.r${i}` });
  serial++;
  fleets.push(f);
  await f.connect();
  return perWindow;
});
report(`${mode} mode, a login (subscribe, authorize, first job)`, logins);

const everyone = [warm, ...fleets];
const connected = everyone.reduce((n, f) => n + f.miners.length, 0);
let turn = 0;
report(
  `${mode} mode, a share (answered by the pool)`,
  await count(async () => {
    const f = everyone[turn++ % everyone.length] as Fleet;
    await shareEach(f);
    return f.miners.length;
  }),
);
report(
  `${mode} mode, a pool job (${connected} miners each given it)`,
  await count(async () => {
    const before = everyone.map((f) => f.miners.map((m) => m.jobId));
    pool.newJob();
    for (;;) {
      await Bun.sleep(20);
      if (everyone.every((f, k) => f.miners.every((m, i) => m.jobId !== before[k]?.[i]))) break;
    }
    return connected;
  }),
);

for (const f of everyone) f.close();
await proxy.stop();
pool.stop();
process.exit(0);
