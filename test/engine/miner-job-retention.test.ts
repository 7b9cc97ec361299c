/**
 * How many jobs a miner of the families that keep them per miner (Ethereum, Kaspa, Alephium, KawPow,
 * Equihash) may still submit for, seen on a Kaspa port: its newest two, older ones while the job after
 * them is younger than the grace, at most eight. A share on a forgotten job is refused by the proxy
 * as stale ("job not found"); one on a kept job goes to the pool. The clock is moved forward between
 * the pool's jobs (bun:test's setSystemTime), as if they came half a minute apart.
 */
import { afterEach, expect, setSystemTime, test } from "bun:test";
import { engine, kasPort, pool } from "../support/kaspa/e2e-fixture.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

afterEach(() => {
  setSystemTime();
});

interface Line {
  method?: string;
  params?: unknown[];
}

const notified = (c: RawClient): string[] =>
  c.lines
    .map((l) => JSON.parse(l) as Line)
    .filter((m) => m.method === "mining.notify")
    .map((m) => String(m.params?.[0]));

test("Kaspa: jobs half a minute apart leave the newest two; jobs in quick succession stay up to eight; a share on a forgotten job is stale at the proxy, on a kept one it reaches the pool", async () => {
  const a = pool({ jobIntervalMs: 0 });
  const t = engine();
  const listen = await t.start(kasPort({ pool_address: a.address }));
  const c = await RawClient.connect(listen);
  c.request(1, "mining.subscribe", ["raw/1.0", "EthereumStratum/1.0.0"]);
  c.request(2, "mining.authorize", ["kaspa:wal.raw", "x"]);
  await until(() => notified(c).length === 1);
  const prefixLine = c.lines.find((l) => l.includes("mining.set_extranonce")) as string;
  const prefix = String((JSON.parse(prefixLine) as Line).params?.[0]);

  let id = 10;
  /** Submits a share on the job and resolves to whether the proxy forgot the job. */
  const forgotten = async (jobId: string): Promise<boolean> => {
    const n = id++;
    c.request(n, "mining.submit", ["kaspa:wal.raw", jobId, prefix.padEnd(16, "0")]);
    await until(() => c.answer(n) !== undefined);
    return JSON.stringify(c.answer(n)?.error ?? null).includes("job not found");
  };
  const nextJob = async () => {
    const before = notified(c).length;
    a.newJob();
    await until(() => notified(c).length === before + 1);
  };

  let now = Date.now();
  for (let k = 0; k < 4; k++) {
    now += 30_000;
    setSystemTime(now);
    await nextJob();
  }
  const slow = notified(c);
  expect(await Promise.all(slow.map(forgotten))).toEqual([true, true, true, false, false]);

  // six more at once: within the grace, all are kept, up to eight jobs in all
  for (let k = 0; k < 6; k++) await nextJob();
  const ids = notified(c).slice(-8);
  expect(ids[0]).toBe(slow[3]);
  expect(await Promise.all(ids.map(forgotten))).toEqual(Array(8).fill(false));
  await nextJob();
  expect(await forgotten(slow[3] as string)).toBe(true);
  expect(await forgotten(slow[4] as string)).toBe(false);
});
