/**
 * Objects the proxy makes per miner for each pool job, for one protocol family in one mode, by JSC
 * type (allocation-count.ts): the garbage a job leaves in every miner's session, which in Efficient
 * mode (a pool session per miner) is made once per miner. Counted in short windows, each voided when
 * a collection ran in it; the jobs the fleet received during the clean windows divide the count,
 * after subtracting what the same windows count at a pool that sends no jobs (timers, the counting).
 * Usage: bun bench/engine/family-allocations.ts [FAMILY|all] [Efficient|Pool] [miners=300] (all: every
 * family registered in engine/stratum/families.ts, about 35 s each).
 */
import { ProxyMode, type ProxyModeCode } from "../../appliance/domain/port.ts";
import { IMPLEMENTED } from "../../appliance/engine/stratum/families.ts";
import { makePort } from "../../test/support/stratum/port-fixture.ts";
import { KITS } from "./family.ts";
import { ProtocolFleet } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";
import { ProxyProcess } from "./proxy-process.ts";

const WINDOW_MS = 250;
const WINDOWS = 60;
/** the pool's pace: a few windows per job, so that windows without a collection hold jobs */
const JOB_INTERVAL_MS = 1_500;
const NO_JOBS_MS = 3_600_000;
const JOB_METHODS = new Set(["mining.notify", "job"]);

interface Counted {
  made: Record<string, number>;
  clean: number;
  jobs: number;
}

async function count(
  kit: FamilyKit,
  mode: ProxyModeCode,
  miners: number,
  jobIntervalMs: number,
): Promise<Counted> {
  const pool = await kit.startPool({ difficulty: kit.difficulty, jobIntervalMs });
  const proxy = await ProxyProcess.start(
    makePort({
      pool_address: pool.address,
      currency: kit.currency,
      category: kit.category,
      mode,
      proxy_addr: "farm",
      proxy_device: "bench",
      limit_connections: 65535,
    }),
  );
  let jobs = 0;
  const protocol = {
    ...kit.protocol,
    onMessage: (
      m: Parameters<typeof kit.protocol.onMessage>[0],
      msg: Parameters<typeof kit.protocol.onMessage>[1],
    ) => {
      if (msg.method !== undefined && JOB_METHODS.has(msg.method)) jobs++;
      kit.protocol.onMessage(m, msg);
    },
  };
  const fleet = new ProtocolFleet({ port: proxy.port, count: miners, user: (i) => `w${i}.r${i}`, protocol });
  try {
    await fleet.connect();
    // every miner has mined once: its device, hashrate ring and job table exist
    const target = fleet.answered + miners;
    for (let i = 0; i < miners; i++) fleet.submit(i);
    while (fleet.answered < target) await Bun.sleep(10);
    await Bun.sleep(1_000);
    const made: Record<string, number> = {};
    let clean = 0;
    let cleanJobs = 0;
    for (let w = 0; w < WINDOWS; w++) {
      await proxy.countStart();
      const before = jobs;
      await Bun.sleep(WINDOW_MS);
      const r = await proxy.count();
      if (r.collected) continue;
      clean++;
      cleanJobs += jobs - before;
      for (const [type, n] of Object.entries(r.made)) made[type] = (made[type] ?? 0) + n;
    }
    return { made, clean, jobs: cleanJobs };
  } finally {
    fleet.close();
    await proxy.stop();
    pool.stop();
  }
}

async function report(kit: FamilyKit, modeName: "Pool" | "Efficient", miners: number): Promise<void> {
  const mode = modeName === "Pool" ? ProxyMode.POOL : ProxyMode.EFFICIENT;
  const idle = await count(kit, mode, miners, NO_JOBS_MS);
  const busy = await count(kit, mode, miners, JOB_INTERVAL_MS);
  if (busy.jobs === 0 || idle.clean === 0)
    throw new Error(`${kit.family}: no clean window held a job, run again`);
  const per: [string, number][] = [];
  let total = 0;
  for (const [type, n] of Object.entries(busy.made)) {
    const overhead = ((idle.made[type] ?? 0) / idle.clean) * busy.clean;
    const v = (n - overhead) / busy.jobs;
    if (v < 0.05) continue;
    per.push([type, v]);
    total += v;
  }
  per.sort((a, b) => b[1] - a[1]);
  console.log(
    `${kit.family} ${modeName}, a pool job: ${total.toFixed(1)} objects a miner (${busy.jobs} jobs received in ${busy.clean} of ${WINDOWS} windows without a collection)`,
  );
  for (const [type, v] of per) console.log(`  ${type.padEnd(28)} ${v.toFixed(2)}`);
}

if (import.meta.main) {
  const name = process.argv[2] ?? "all";
  const kits =
    name === "all"
      ? KITS.filter((k) => IMPLEMENTED[k.family] !== undefined)
      : KITS.filter((k) => k.family === name);
  if (kits.length === 0)
    throw new Error(`family must be all or one of ${KITS.map((k) => k.family).join(", ")}`);
  const modeName = process.argv[3] === "Pool" ? "Pool" : "Efficient";
  const miners = Number(process.argv[4] ?? 300);
  for (const kit of kits) await report(kit, modeName, miners);
  process.exit(0);
}
