/**
 * How many of the pool's jobs a port keeps for late shares: a lane keeps the jobs its miners still
 * mine (or left within the grace) and its newest two; older ones are forgotten, so a farm on a pool
 * that sends a job every 30 s does not hold six jobs per miner. The clock is moved forward between
 * the pool's jobs (bun:test's setSystemTime), as if they came half a minute apart.
 */
import { afterEach, expect, setSystemTime, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import type { BitcoinRuntime } from "../../appliance/engine/stratum/bitcoin/runtime.ts";
import { makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  setSystemTime();
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The job ids a raw miner was sent, oldest first. */
const notified = (c: RawClient): string[] =>
  c.lines
    .map((l) => JSON.parse(l) as { method?: string; params?: unknown[] })
    .filter((m) => m.method === "mining.notify")
    .map((m) => String(m.params?.[0]));

test("Efficient mode: after jobs half a minute apart, each miner's lane keeps its current and previous job; a share on an older one is stale, on the previous one it goes to the pool", async () => {
  const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  const t = makeEngine();
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
  );
  const port = makePort({ pool_address: pool.address, mode: ProxyMode.EFFICIENT });
  const listen = await t.start(port);
  const miners = await Promise.all([RawClient.connect(listen), RawClient.connect(listen)]);
  cleanup.push(() => {
    for (const m of miners) m.close();
  });
  for (const [i, m] of miners.entries()) {
    m.request(1, "mining.subscribe", ["raw/1.0"]);
    m.request(2, "mining.authorize", [`w${i}.rig`, "x"]);
  }
  await until(() => miners.every((m) => notified(m).length === 1));

  let now = Date.now();
  for (let k = 2; k <= 6; k++) {
    now += 30_000;
    setSystemTime(now);
    pool.newJob();
    await until(() => miners.every((m) => notified(m).length === k));
  }

  const runtime = t.engine.running(port.id)?.runtime as BitcoinRuntime;
  expect(runtime.jobs.size).toBe(2 * miners.length);

  const m = miners[0] as RawClient;
  const ids = notified(m);
  const submit = (id: number, jobId: string) =>
    m.request(id, "mining.submit", ["w0.rig", jobId, "00000000", "00000000", "00000000"]);
  submit(3, ids[0] as string);
  submit(4, ids[4] as string);
  await until(() => m.answer(3) !== undefined && m.answer(4) !== undefined);
  expect(JSON.stringify(m.answer(3)?.error)).toContain("job not found");
  // the previous job is still known: the share is checked by the pool, not refused as unknown
  expect(JSON.stringify(m.answer(4)?.error ?? null)).not.toContain("job not found");
});
