/**
 * /api/metrics as an operator uses it: a real Prometheus server scrapes the real appliance every
 * second with the metrics token, while hashing miners mine through two ports to test pools that
 * verify every share; then PromQL, asked over Prometheus' HTTP API, answers each port's hashrate and
 * fee achieved. The truth is the pools': each accepted share is stamped when the pool accepts it.
 */

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { dashboardQueries, loadDashboard, runnable } from "../support/grafana-dashboard.ts";
import { PrometheusServer, type PromSample } from "../support/prometheus.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(180_000);

const DIFFICULTY = 2e-8;
const hashrate = (sharesPerSecond: number) => Math.round((sharesPerSecond * DIFFICULTY * 2 ** 48) / 0xffff);
const MINING_MS = 26_000;
/** the PromQL rate window, and how long before the end of mining it closes */
const WINDOW_S = 15;
const WINDOW_END_BEFORE_MS = 4_000;

interface PortPlan {
  number: number;
  feeDevice: string;
  ratio: number;
  miners: { user: string; sharesPerSecond: number }[];
}

const plans: PortPlan[] = [
  {
    number: 0,
    feeDevice: "feeA",
    ratio: 0.1,
    miners: [
      { user: "wal.rigA1", sharesPerSecond: 40 },
      { user: "wal.rigA2", sharesPerSecond: 40 },
    ],
  },
  { number: 0, feeDevice: "feeB", ratio: 0.05, miners: [{ user: "wal.rigB1", sharesPerSecond: 20 }] },
];

/** every share the pools accepted: when, whose, how much (Σ difficulty) */
const accepted: { at: number; worker: string; work: number }[] = [];
let t: TestAppliance;
let main: TestPool;
let fee: TestPool;
let prom: PrometheusServer;
let miningEnd = 0;

const workersOf = (p: PortPlan) => [...p.miners.map((m) => m.user), `feeaddr.${p.feeDevice}`];
const poolWork = (workers: string[], from = 0, to = Number.POSITIVE_INFINITY) =>
  accepted
    .filter((s) => workers.includes(s.worker) && s.at > from && s.at <= to)
    .reduce((a, s) => a + s.work, 0);
const byPort = (samples: PromSample[], p: PortPlan) =>
  samples.find((s) => s.metric.port === String(p.number));

beforeAll(async () => {
  const record = (share: { worker: string; difficulty: number }) =>
    accepted.push({ at: Date.now(), worker: share.worker, work: share.difficulty });
  main = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8, onAccepted: record });
  fee = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8, onAccepted: record });
  t = await startTestAppliance();
  for (const p of plans) {
    p.number = freePort();
    const created = await t.client.post(
      "/api/port/new",
      portBody({
        port: p.number,
        pool_address: main.address,
        status: 1,
        wallets: [
          {
            addr: "feeaddr",
            device: p.feeDevice,
            pool_address: fee.address,
            pool_protocol: 0,
            ratio: p.ratio,
          },
        ],
      }),
    );
    expect(created.status).toBe(200);
  }
  const token = (await t.client.get<{ token: string }>("/api/metrics/token")).body.token;
  prom = await PrometheusServer.start({
    address: new URL(t.app.url()).host,
    path: "/api/metrics",
    bearer: token,
  });
  await prom.until("the appliance scraped as up", async () => (await prom.target()).health === "up");
  const miners = plans.flatMap((p) =>
    p.miners.map((m) =>
      TestMiner.start({ port: p.number, user: m.user, hashesPerSecond: hashrate(m.sharesPerSecond) }),
    ),
  );
  await Bun.sleep(MINING_MS);
  await Promise.all(miners.map((m) => m.finish()));
  miningEnd = Date.now();
  // Every answered share is in the appliance's counters; wait until Prometheus has scraped them all.
  await prom.until("the last shares scraped", async () => {
    const shares = await prom.query('pithead_port_shares_total{result="accepted"}');
    return plans.every(
      (p) => byPort(shares, p)?.value === accepted.filter((s) => workersOf(p).includes(s.worker)).length,
    );
  });
});

afterAll(async () => {
  await prom?.stop();
  await t?.close();
  main?.stop();
  fee?.stop();
});

test("PromQL answers each port's hashrate: the rate of accepted work matches what the pools accepted in the window", async () => {
  // The hashes one unit of difficulty stands for is the engine's factor (about 2^32): read it off
  // the counters, then compare rates.
  const totals = await prom.query("sum by (port) (pithead_port_accepted_work_hashes_total)");
  const at = miningEnd - WINDOW_END_BEFORE_MS;
  const rates = await prom.query(
    `sum by (port) (rate(pithead_port_accepted_work_hashes_total[${WINDOW_S}s]))`,
    at,
  );
  expect(rates.length).toBe(plans.length);
  for (const p of plans) {
    const factor = (byPort(totals, p)?.value ?? 0) / poolWork(workersOf(p));
    expect(Math.abs(factor / 2 ** 32 - 1)).toBeLessThan(1e-4);
    const truth = (poolWork(workersOf(p), at - WINDOW_S * 1000, at) * factor) / WINDOW_S;
    const answer = byPort(rates, p)?.value ?? 0;
    expect(truth).toBeGreaterThan(0);
    // Prometheus sees the counters once a second and extrapolates to the window's edges.
    expect(Math.abs(answer / truth - 1)).toBeLessThan(0.15);
  }
  // the two ports' hashrates are told apart: port A mines four times port B's shares
  const [a, b] = plans.map((p) => byPort(rates, p)?.value ?? 0) as [number, number];
  expect(a / b).toBeGreaterThan(2.5);
});

test("PromQL answers each port's fee achieved: fee work over all work is the fee pool's share of the pools' work", async () => {
  const achieved = await prom.query(
    'sum by (port) (pithead_port_accepted_work_hashes_total{target="fee"}) / sum by (port) (pithead_port_accepted_work_hashes_total)',
  );
  const gauge = await prom.query("pithead_port_fee_achieved_ratio");
  const configured = await prom.query("pithead_port_fee_configured_ratio");
  for (const p of plans) {
    const truth = poolWork([`feeaddr.${p.feeDevice}`]) / poolWork(workersOf(p));
    expect(truth).toBeGreaterThan(0);
    expect(Math.abs((byPort(achieved, p)?.value ?? 0) - truth)).toBeLessThan(1e-9);
    expect(Math.abs((byPort(gauge, p)?.value ?? 0) - truth)).toBeLessThan(1e-9);
    expect(byPort(configured, p)?.value).toBe(p.ratio);
  }
});

test("PromQL answers the miners each port had and the process' memory", async () => {
  const connected = await prom.query(
    "max_over_time(pithead_port_miners_connected[1m])",
    miningEnd - WINDOW_END_BEFORE_MS,
  );
  for (const p of plans) expect(byPort(connected, p)?.value).toBe(p.miners.length);
  // The appliance runs in this process: the kernel's own count of its resident pages is the truth,
  // give or take what a second of work allocates between the scrape and this reading.
  const rss = (await prom.query("process_resident_memory_bytes"))[0]?.value ?? 0;
  const kernel = Number(readFileSync("/proc/self/status", "utf8").match(/VmRSS:\s+(\d+) kB/)?.[1]) * 1024;
  expect(rss / kernel).toBeGreaterThan(0.5);
  expect(rss / kernel).toBeLessThan(2);
});

test("every query of the Grafana dashboard runs in Prometheus and answers series", async () => {
  for (const q of dashboardQueries(loadDashboard())) {
    const answer = await prom.query(runnable(q, "5s"), miningEnd - WINDOW_END_BEFORE_MS);
    expect({ q, series: answer.length > 0 }).toEqual({ q, series: true });
  }
});
