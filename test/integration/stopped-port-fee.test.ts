import { afterAll, beforeAll, expect, test } from "bun:test";
import type { PortStatsView } from "../../appliance/domain/engine.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

const wallet = (addr: string, ratio: number) => ({
  addr,
  device: "fee1",
  pool_address: "127.0.0.1:1",
  pool_protocol: 0,
  ratio,
});

test("a stopped port's fee configured is its configuration's, wallet by wallet", async () => {
  const body = portBody({
    port: freePort(),
    status: 0,
    wallets: [wallet("bc1qten", 0.1), wallet("bc1qtwo", 0.02)],
  });
  const made = await t.client.post<{ id: number }>("/api/port/new", body);
  expect(made.status).toBe(200);
  const { body: stats } = await t.client.get<PortStatsView>(`/api/stat/port/${made.body.id}`);
  expect(stats.fee.configured).toBeCloseTo(0.12, 10);
  expect(stats.fee.target).toBeCloseTo(0.12, 10);
  expect(stats.fee.achieved).toBe(0);
  expect(stats.fee.wallets.map((w) => [w.addr, w.configured])).toEqual([
    ["bc1qten", 0.1],
    ["bc1qtwo", 0.02],
  ]);
});
