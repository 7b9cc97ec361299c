/**
 * The engine on a thread of its own (issue 8): what it reads of the appliance reaches that thread
 * when the operator changes it — an address or wallet banned through the API is refused on a port
 * already running, and mines again once lifted — and stopping the appliance ends the thread and
 * frees its ports, start after start.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(60_000);

let pool: TestPool;

beforeAll(async () => {
  pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
});

afterAll(() => pool?.stop());

/** A port with no fee wallet, running, in front of the test pool; its listening port number. */
async function runningPort(t: TestAppliance): Promise<number> {
  const port = freePort();
  const created = await t.client.post(
    "/api/port/new",
    portBody({ port, pool_address: pool.address, status: 1 }),
  );
  expect(created.status).toBe(200);
  return port;
}

async function accepted(port: number, user: string): Promise<number> {
  const report = await TestMiner.start({ port, user, maxShares: 3, maxMs: 3_000 }).done;
  return report.accepted;
}

describe("bans reach the engine's thread", () => {
  let t: TestAppliance;
  let port: number;

  beforeAll(async () => {
    t = await startTestAppliance();
    port = await runningPort(t);
  });

  afterAll(() => t?.close());

  test("an address banned through the API is refused on the running port; unbanned it mines again", async () => {
    expect((await t.client.post("/api/ip/blacklist", { ips: ["127.0.0.1"] })).status).toBe(200);
    expect(await accepted(port, "wal.rig")).toBe(0);
    expect((await t.client.del("/api/ip/blacklist", { ips: ["127.0.0.1"] })).status).toBe(200);
    expect(await accepted(port, "wal.rig")).toBe(3);
  });

  test("a wallet banned through the API is refused; another wallet mines on", async () => {
    expect((await t.client.post("/api/wallet/blacklist", { ips: ["banned"] })).status).toBe(200);
    expect(await accepted(port, "banned.rig")).toBe(0);
    expect(await accepted(port, "welcome.rig")).toBe(3);
  });
});

test("stopping the appliance ends the engine's thread and frees its ports, start after start", async () => {
  const threads = () => readdirSync("/proc/self/task").length;
  const cycle = async (): Promise<number> => {
    const t = await startTestAppliance();
    const port = await runningPort(t);
    expect(await accepted(port, "wal.rig")).toBe(3);
    await t.close();
    return port;
  };
  // the first start makes the threads Bun keeps for good (HTTP, workers' pools)
  await cycle();
  const before = threads();
  for (let i = 0; i < 3; i++) {
    const port = await cycle();
    // the port is free again: nothing of the stopped engine holds it
    const again = Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } });
    again.stop(true);
  }
  // a stopped worker's thread ends shortly after terminate() resolves, later on a loaded box
  await until(() => threads() <= before);
});
