import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

type Point = { at: number; hashrate: number; valid: number };

test("a coin's chart is the sum of its ports' persisted minutes; bad windows are refused", async () => {
  const a = (await t.client.post<{ id: number }>("/api/port/new", portBody({ port: freePort() }))).body.id;
  const b = (await t.client.post<{ id: number }>("/api/port/new", portBody({ port: freePort() }))).body.id;
  const minute = Math.floor(Date.now() / 60_000) - 2;
  const sample = (portId: number, work: number) => ({
    portId,
    device: "",
    minute,
    work,
    feeWork: 0,
    valid: 1,
    invalid: 0,
    stale: 0,
  });
  // the engine hands closed minutes to the series store, which writes them in one batch
  t.app.ctx.series.add(sample(a, 60e12));
  t.app.ctx.series.add(sample(b, 120e12));
  t.app.ctx.series.flush();

  const port = await t.client.get<Point[]>(`/api/stat/port/${a}/series`);
  expect(port.body).toEqual([expect.objectContaining({ at: minute * 60_000, hashrate: 1e12, valid: 1 })]);
  const coin = await t.client.get<Point[]>("/api/stat/currency/BTC/series");
  expect(coin.body).toEqual([expect.objectContaining({ at: minute * 60_000, hashrate: 3e12, valid: 2 })]);
  const stats = await t.client.get<{ series: { t: number[]; h: number[] } }>("/api/stat/currency/BTC");
  expect(stats.body.series).toEqual({ t: [minute * 60], h: [3e12] });
  expect((await t.client.get<{ series?: unknown }>("/api/stat/currency/LTC")).body.series).toBeUndefined();
  const hours = await t.client.get<Point[]>("/api/stat/currency/BTC/series?res=hour");
  expect(hours.body[0]?.hashrate).toBeCloseTo(3e12 / 60);
  expect((await t.client.get("/api/stat/currency/BTC/series?res=day")).status).toBe(400);
  expect((await t.client.get("/api/stat/currency/BTC/series?from=10&to=5")).status).toBe(400);
});
