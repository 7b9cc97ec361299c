import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

test("Prometheus metrics answer with the metrics token as bearer and list every port", async () => {
  const port = freePort();
  await t.client.post("/api/port/new", portBody({ port, status: 1 }));
  const token = (await t.client.get<{ token: string }>("/api/metrics/token")).body.token;
  const res = await fetch(`${t.app.url()}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain");
  const text = await res.text();
  expect(text).toContain(`pithead_port_up{port="${port}",coin="BTC"} 1`);
  expect(text).toContain(`pithead_port_devices_online{port="${port}",coin="BTC"} 0`);
  expect(text).toContain(`pithead_port_shares_total{port="${port}",coin="BTC",result="valid"} 0`);
  expect(text).toMatch(/# TYPE pithead_port_hashrate_hps gauge/);
  const anonymous = await fetch(`${t.app.url()}/api/metrics`, { headers: { authorization: "Bearer wrong" } });
  expect(anonymous.status).toBe(401);
});
