import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

let t: TestAppliance;
let pool: TestPool;
let token = "";
/** a port with a fee wallet, so that every per-port family has samples to check */
const port = freePort();
beforeAll(async () => {
  t = await startTestAppliance();
  await t.client.post("/api/port/new", portBody({ port, status: 1 }));
  pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  token = (await t.client.get<{ token: string }>("/api/metrics/token")).body.token;
});
afterAll(async () => {
  await t.close();
  pool.stop();
});

const scrape = async (query = "") => {
  const res = await fetch(`${t.app.url()}/api/metrics${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain");
  return res.text();
};

test("Prometheus metrics answer with the metrics token as bearer and list every port", async () => {
  const text = await scrape();
  expect(text).toContain(`pithead_port_up{port="${port}",coin="BTC"} 1`);
  expect(text).toContain(`pithead_port_miners_connected{port="${port}",coin="BTC"} 0`);
  expect(text).toContain(`pithead_port_shares_total{port="${port}",coin="BTC",result="accepted"} 0`);
  expect(text).toContain(`pithead_port_fee_configured_ratio{port="${port}",coin="BTC"} 0.02`);
  expect(text).toMatch(/# TYPE pithead_port_hashrate_hashes_per_second gauge/);
  const anonymous = await fetch(`${t.app.url()}/api/metrics`, { headers: { authorization: "Bearer wrong" } });
  expect(anonymous.status).toBe(401);
});

test("Prometheus' own linter (promtool check metrics) finds nothing against the naming conventions", async () => {
  const lint = Bun.spawn(["promtool", "check", "metrics"], {
    stdin: new TextEncoder().encode(await scrape("?devices=1")),
    stdout: "pipe",
    stderr: "pipe",
  });
  const said = (await new Response(lint.stdout).text()) + (await new Response(lint.stderr).text());
  expect(said).toBe("");
  expect(await lint.exited).toBe(0);
});

test("per-device series only when the scrape asks for them with ?devices=1", async () => {
  const mined = freePort();
  await t.client.post("/api/port/new", portBody({ port: mined, status: 1, pool_address: pool.address }));
  const miner = TestMiner.start({ port: mined, user: "wal.rig7", maxShares: 5, maxMs: 30_000 });
  await miner.done;
  const bounded = await scrape();
  expect(bounded).not.toContain("pithead_device_");
  expect(bounded).toContain(`pithead_port_shares_total{port="${mined}",coin="BTC",result="accepted"} 5`);
  const detailed = await scrape("?devices=1");
  expect(detailed).toContain(
    `pithead_device_shares_total{port="${mined}",coin="BTC",wallet="wal",worker="rig7",ip="127.0.0.1",result="accepted"} 5`,
  );
});

test("a stopped port is down and its fee configured is its configuration's", async () => {
  const stopped = freePort();
  const created = await t.client.post(
    "/api/port/new",
    portBody({
      port: stopped,
      status: 0,
      wallets: [
        { addr: "bc1qfee", device: "fee1", pool_address: "127.0.0.1:1", pool_protocol: 0, ratio: 0.1 },
      ],
    }),
  );
  expect(created.status).toBe(200);
  const text = await scrape();
  expect(text).toContain(`pithead_port_up{port="${stopped}",coin="BTC"} 0`);
  expect(text).toContain(`pithead_port_fee_configured_ratio{port="${stopped}",coin="BTC"} 0.1`);
});
