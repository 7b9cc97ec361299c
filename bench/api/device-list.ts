/**
 * Control-plane benchmark: the device list of a port with 10,000 devices,
 * `GET /api/port/{id}/workers` (budget ≤ 50 ms).
 *
 * Starts the real appliance in-process, creates one closed port through the API and registers 10,000
 * devices on it straight in the engine's device registry (Engine.registry.connect, the call a miner's
 * authorize makes), each with a few accepted shares so its hashrate windows are filled. No sockets:
 * the engine benchmarks measure miners; this measures the list. Timed as the console makes the call:
 * wall time on the client, request to parsed JSON, with the handler's pieces timed in-process.
 *
 *   node_modules/.bin/bun bench/api/device-list.ts
 */
import { loadavg } from "node:os";
import { Engine } from "../../appliance/engine/engine.ts";
import { portBody, startTestAppliance, tempDir } from "../../test/support/appliance.ts";
import { BASE_PORT, listVerdict, round, roundAll, summary, timedGet, timeGets, timeRuns } from "./fixture.ts";

export const DEVICES = 10_000;
export const RUNS = 50;
export const BUDGET_MS = 50;
/** devices per page, as the console asks for them */
const PAGE = 100;
/** accepted shares given to each device, spread over the last 20 minutes */
const SHARES_PER_DEVICE = 5;

export interface RunOptions {
  log?: (line: string) => void;
}

export async function run(opts: RunOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const t = await startTestAppliance(tempDir("pithead-bench-"));
  try {
    const { ctx } = t.app;
    const engine = ctx.engine;
    if (!(engine instanceof Engine)) throw new Error("the appliance's engine is not an Engine");
    const made = await t.client.post<{ id: number }>(
      "/api/port/new",
      portBody({ port: BASE_PORT, name: "bench" }),
    );
    if (made.status !== 200)
      throw new Error(`POST /api/port/new: ${made.status} ${JSON.stringify(made.body)}`);
    const portId = made.body.id;

    const now = Date.now();
    for (let i = 0; i < DEVICES; i++) {
      const d = engine.registry.connect(
        portId,
        `bc1qbenchwallet${(i % 100).toString().padStart(3, "0")}`,
        `rig${i}`,
        `127.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        "sha256d",
        now - 20 * 60_000,
      );
      d.agent = "cgminer/4.12.1";
      d.upstreamUser = `bc1qbenchwallet.rig${i}`;
      d.difficulty = 65536;
      for (let s = 0; s < SHARES_PER_DEVICE; s++) {
        const at = now - (SHARES_PER_DEVICE - s) * 4 * 60_000;
        const target = s === 0 && i % 50 === 0 ? "1" : "main";
        engine.registry.result(d, "valid", target, 65536 * 2 ** 32, 12 + (i % 7), true, at);
      }
    }
    log(`registered ${DEVICES} devices on port ${BASE_PORT} (id ${portId}) in the engine's registry`);

    const url = `${t.app.url()}/api/port/${portId}/workers`;
    const calls = await timeGets(RUNS, 5, () => timedGet<unknown[]>(url, t.client.token));
    const count = calls.last.value.length;
    if (count !== DEVICES) throw new Error(`GET ${url} listed ${count} devices, expected ${DEVICES}`);
    const bytes = calls.last.bytes;
    const text = JSON.stringify(calls.last.value);

    // The pieces of the handler, in-process.
    const views = engine.live.workers(portId);
    const lookup = await timeRuns(RUNS, 3, () => ctx.ports.get(portId));
    const scan = await timeRuns(RUNS, 3, () => engine.registry.devices(portId));
    const assemble = await timeRuns(RUNS, 3, () => engine.live.workers(portId));
    const stringify = await timeRuns(RUNS, 3, () => JSON.stringify(views));
    const parse = await timeRuns(RUNS, 3, () => JSON.parse(text));
    // The console's call: one page of PAGE devices, sorted by 15-minute hashrate, with the total.
    const pageCalls = await timeGets(RUNS, 5, () =>
      timedGet<{ total: number }>(`${url}?limit=${PAGE}&sort=m15&order=desc`, t.client.token),
    );
    if (pageCalls.last.value.total !== DEVICES) throw new Error("the paged list lost devices");
    const pageBytes = pageCalls.last.bytes;
    const paged = pageCalls.total;

    const w = summary(calls.total);
    const result = roundAll({
      devices: DEVICES,
      runs: RUNS,
      median_ms: w.median,
      p95_ms: w.p95,
      min_ms: w.min,
      max_ms: w.max,
      budget_ms: BUDGET_MS,
      load_avg_1m: loadavg()[0] ?? 0,
      response_bytes: bytes,
      client_headers_median_ms: summary(calls.headers).median,
      client_body_median_ms: summary(calls.body).median,
      client_parse_median_ms: summary(calls.parse).median,
      port_lookup_median_ms: summary(lookup).median,
      registry_scan_median_ms: summary(scan).median,
      views_median_ms: summary(assemble).median,
      json_stringify_median_ms: summary(stringify).median,
      json_parse_median_ms: summary(parse).median,
      page_median_ms: summary(paged).median,
      page_p95_ms: summary(paged).p95,
      page_bytes: pageBytes,
    });
    log(
      `GET /api/port/{id}/workers, ${DEVICES} devices, ${(bytes / 1024).toFixed(0)} KiB: ` +
        `median ${round(w.median)} ms, p95 ${round(w.p95)} ms over ${RUNS} calls — ${listVerdict(w.median, w.p95, BUDGET_MS)}`,
    );
    log(
      `  client phases (median): to response headers ${result.client_headers_median_ms} ms, ` +
        `body ${result.client_body_median_ms} ms, JSON.parse ${result.client_parse_median_ms} ms`,
    );
    log(
      `  in-process pieces (median): port lookup ${result.port_lookup_median_ms} ms, ` +
        `registry scan ${result.registry_scan_median_ms} ms, device views incl. scan ${result.views_median_ms} ms, ` +
        `JSON.stringify ${result.json_stringify_median_ms} ms, JSON.parse ${result.json_parse_median_ms} ms`,
    );
    log(
      `GET /api/port/{id}/workers?limit=${PAGE}&sort=m15 (the console's page): median ` +
        `${result.page_median_ms} ms, p95 ${result.page_p95_ms} ms, ${(pageBytes / 1024).toFixed(0)} KiB — ` +
        `${listVerdict(result.page_median_ms ?? 0, result.page_p95_ms ?? 0, BUDGET_MS)}`,
    );
    return result;
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const result = await run();
  console.log(JSON.stringify({ bench: "api.device-list", ...result }));
}
