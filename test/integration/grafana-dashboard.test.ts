/**
 * docs/grafana/pithead.json is a Grafana 10 dashboard whose every query names only metrics the
 * appliance exports: the names are read out of its PromQL and compared with a real scrape of
 * /api/metrics (the `# TYPE` lines), per-device series included. (Prometheus itself runs each query in
 * test/integration/prometheus.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import {
  type Dashboard,
  dashboardQueries,
  loadDashboard,
  metricNames,
} from "../support/grafana-dashboard.ts";

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's data source variable, not a JS template
const DATASOURCE = { type: "prometheus", uid: "${datasource}" };

let t: TestAppliance;
let exported = new Set<string>();
let dashboard: Dashboard;

beforeAll(async () => {
  t = await startTestAppliance();
  await t.client.post("/api/port/new", portBody({ port: freePort(), status: 1 }));
  const token = (await t.client.get<{ token: string }>("/api/metrics/token")).body.token;
  const res = await fetch(`${t.app.url()}/api/metrics?devices=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  exported = new Set([...text.matchAll(/^# TYPE (\S+) (?:gauge|counter)$/gm)].map((m) => m[1] as string));
  dashboard = loadDashboard();
});
afterAll(() => t.close());

test("the metric names are read out of PromQL: functions, labels, keywords and variables are not names", () => {
  expect(
    metricNames(
      'sum by (instance, port) (rate(a_total{job=~"$job", x="b_total"}[$__rate_interval])) / on (port) group_left c_ratio offset 5m > bool 0.5e3',
    ).sort(),
  ).toEqual(["a_total", "c_ratio"]);
});

test("the dashboard is a Grafana 10 dashboard: schema, unique panel ids, Prometheus targets, defined variables", () => {
  expect(dashboard.schemaVersion).toBe(38);
  expect(dashboard.uid).toBe("pithead");
  const ids = dashboard.panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  const variables = new Set(dashboard.templating.list.map((v) => v.name));
  for (const p of dashboard.panels) {
    expect(p.type).toBe("timeseries");
    expect(p.gridPos.w).toBeGreaterThan(0);
    expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
    expect(p.targets.length).toBeGreaterThan(0);
    for (const target of [p, ...p.targets]) expect(target.datasource).toEqual(DATASOURCE);
  }
  for (const q of dashboardQueries(dashboard))
    for (const [, name] of q.matchAll(/\$(\w+)/g))
      if (!name?.startsWith("__")) expect(variables).toContain(name);
});

test("the panels the operator needs are there", () => {
  const titles = dashboard.panels.map((p) => p.title);
  for (const title of [
    "Hashrate per port",
    "Miners online",
    "Shares accepted / rejected",
    "Fee configured vs achieved",
    "Pool latency",
    "Memory",
  ])
    expect(titles).toContain(title);
});

test("every PromQL in the dashboard names only metrics a scrape of /api/metrics lists", () => {
  expect(exported.size).toBeGreaterThan(20);
  const queries = dashboardQueries(dashboard);
  expect(queries.length).toBeGreaterThan(10);
  for (const q of queries) {
    const names = metricNames(q);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect({ query: q, name, exported: exported.has(name) }).toEqual({ query: q, name, exported: true });
  }
});
