/**
 * Appliance chaining with an RMS password, through two whole appliances (docs/rms-tunnel.md,
 * "Upstream"): the server appliance asks for a password in Settings → RMS, the farm appliance's port
 * reaches it through an RMS3 pool. Without the farm's upstream password its port is refused and its
 * log says why; with it (POST /api/rms/upstream) a hashing miner mines, also after a restart. The
 * password is never read back in clear and is redacted in the audit log.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { until, untilAsync } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(60_000);

const KEY = "chained rms 6d2e";
const PASSWORD = "upstream pass 3";
const MASK = "********";
const RMS3 = 6;

let server: TestAppliance;
let farm: TestAppliance;
let pool: TestPool;
// each taken just before its port is made: taken when the file loaded, a port could become the
// local end of one of the appliances' own connections first (409, occupied)
let serverPort = 0;

beforeAll(async () => {
  pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  server = await startTestAppliance();
  farm = await startTestAppliance();
  for (const t of [server, farm]) expect((await t.client.post("/api/kc/key", { k: KEY })).status).toBe(200);
  const rms = (await server.client.get<Record<string, unknown>>("/api/rms/config")).body;
  expect((await server.client.post("/api/rms/config", { ...rms, password: PASSWORD })).status).toBe(200);
  serverPort = freePort();
  const tunnel = portBody({
    port: serverPort,
    name: "tunnel",
    status: 1,
    protocol: RMS3,
    pool_address: pool.address,
  });
  expect((await server.client.post("/api/port/new", tunnel)).status).toBe(200);
});

afterAll(async () => {
  await farm.close();
  await server.close();
  await pool.stop();
});

const farmLog = async () =>
  (await farm.client.get<{ message: string }[]>("/api/running/log")).body.map((l) => l.message);

test("the upstream password is read back masked, kept when the mask comes back, and redacted in the audit log", async () => {
  expect((await farm.client.get("/api/rms/upstream")).body).toEqual({ password: "" });
  expect((await farm.client.post("/api/rms/upstream", { password: "x".repeat(129) })).status).toBe(400);
  const saved = await farm.client.post("/api/rms/upstream", { password: "first try" });
  expect(saved).toMatchObject({ status: 200, body: { password: MASK } });
  expect((await farm.client.get("/api/rms/upstream")).body).toEqual({ password: MASK });
  // the console sends the mask back when the field was left alone: the stored password stays
  expect((await farm.client.post("/api/rms/upstream", { password: MASK })).status).toBe(200);
  expect(farm.app.ctx.settings.get<string>("rms_upstream_password", "")).toBe("first try");
  // it is its own setting: the RMS settings' password (asked of this appliance's clients) is untouched
  expect((await farm.client.get<{ password: string }>("/api/rms/config")).body.password).toBe("");
  const audit = (await farm.client.get<{ items: { object: string }[] }>("/api/audit?limit=500")).body.items;
  const entries = audit.filter((e) => e.object === "RMS upstream password");
  expect(entries).toHaveLength(1);
  expect(JSON.stringify(entries)).toContain('"field":"upstream_password","old":"","new":"[redacted]"');
  expect(JSON.stringify(audit)).not.toContain("first try");
  expect((await farm.client.post("/api/rms/upstream", { password: "" })).body).toEqual({ password: "" });
});

test("a farm port without the server's RMS password is refused and says why; given it, it mines, also after a restart", async () => {
  const farmPort = freePort();
  const body = portBody({
    port: farmPort,
    name: "chained",
    status: 1,
    pool_address: `127.0.0.1:${serverPort}`,
    connect_mode: RMS3,
    // the fee pool is the test pool itself: the farm port's fee sessions reach it without the tunnel
    wallets: [{ addr: "bc1qfee", device: "fee1", pool_address: pool.address, pool_protocol: 0, ratio: 0.02 }],
  });
  expect((await farm.client.post("/api/port/new", body)).status).toBe(200);
  const refusal = `pool tunnel: RMS3 127.0.0.1:${serverPort}: the server refuses the tunnel: no RMS password given: this server asks for one`;
  await untilAsync(async () => (await farmLog()).some((m) => m.includes(refusal)));
  // the running port takes the password at its tunnel's next dial
  expect((await farm.client.post("/api/rms/upstream", { password: PASSWORD })).status).toBe(200);
  const r = await TestMiner.start({ port: farmPort, user: "wal.chain1", maxShares: 5, maxMs: 30_000 }).done;
  expect(r.accepted).toBe(5);
  expect(pool.workers.get("wal.chain1")?.shares).toBe(5);

  // the stored password reaches the engine when the appliance starts
  const dataDir = farm.dataDir;
  await farm.close(true);
  farm = await startTestAppliance(dataDir);
  await until(() => farm.app.ctx.ports.list().length === 1);
  const again = await TestMiner.start({ port: farmPort, user: "wal.chain2", maxShares: 5, maxMs: 30_000 })
    .done;
  expect(again.accepted).toBe(5);
});
