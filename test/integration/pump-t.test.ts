/**
 * pump_t (minimum seconds between a device's fee switches) end to end: saved through the API, read
 * back by the engine when the appliance starts on the same data, and seen by a hashing miner as the
 * number of times it is moved between pools. A move re-issues work as a clean job (the test pools
 * never send one of their own), so the miner's clean jobs after its first count its switches; the
 * pools' tallies show where its shares went. No clock is read: switches are counted over shares.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { type MinerReport, TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(180_000);

const DIFFICULTY = 2e-8;
const hashrate = (sharesPerSecond: number) => Math.round((sharesPerSecond * DIFFICULTY * 2 ** 48) / 0xffff);
const SHARES = 300;

let t: TestAppliance;
let main: TestPool;
let fee: TestPool;
let port = 0;

beforeAll(async () => {
  main = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
  fee = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
  t = await startTestAppliance();
  port = freePort();
  const created = await t.client.post(
    "/api/port/new",
    portBody({
      port,
      pool_address: main.address,
      status: 1,
      wallets: [{ addr: "feeaddr", device: "fee", pool_address: fee.address, pool_protocol: 0, ratio: 0.1 }],
    }),
  );
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await t?.close();
  main?.stop();
  fee?.stop();
});

async function mine(user: string): Promise<{ switches: number; feeShares: number; report: MinerReport }> {
  const feeBefore = fee.workers.get("feeaddr.fee")?.shares ?? 0;
  const miner = TestMiner.start({
    port,
    user,
    hashesPerSecond: hashrate(50),
    maxShares: SHARES,
    maxMs: 120_000,
  });
  const report = await miner.done;
  expect(report.accepted).toBe(SHARES);
  return {
    switches: report.cleanJobs - 1,
    feeShares: (fee.workers.get("feeaddr.fee")?.shares ?? 0) - feeBefore,
    report,
  };
}

test("without pump_t a miner is moved to the fee pool and back many times over 300 shares", async () => {
  expect((await t.client.get("/api/pump/t")).body).toEqual({ t: 0 });
  const free = await mine("wal.free");
  // a 10 % fee owes a visit every few tens of shares: each visit is two switches
  expect(free.switches).toBeGreaterThanOrEqual(4);
  expect(free.feeShares).toBeGreaterThan(0);
  expect(free.feeShares).toBeLessThan(SHARES / 2);
});

test("pump_t 3600 saved through the API and read at start: one switch in 300 shares, the miner stays on the fee pool", async () => {
  const saved = await t.client.post("/api/pump/t/3600");
  expect(saved.body).toEqual({ t: 3600 });
  expect((await t.client.post("/api/pump/t/3601")).status).toBe(400);
  // the engine takes the stored value when the appliance starts on the same data
  const dataDir = t.dataDir;
  await t.close(true);
  t = await startTestAppliance(dataDir);
  expect((await t.client.get("/api/pump/t")).body).toEqual({ t: 3600 });
  const held = await mine("wal.held");
  // moved once when the port owed the fee, then held there for the hour pump_t asks
  expect(held.switches).toBe(1);
  expect(held.feeShares).toBeGreaterThan(SHARES / 2);
});
