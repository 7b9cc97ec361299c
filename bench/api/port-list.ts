/**
 * Control-plane benchmark: `GET /api/ports` with 1,000 ports configured (budget ≤ 50 ms).
 *
 * Starts the real appliance in-process on a temporary data dir, creates the ports through the API
 * (closed, so no listener opens), then times the list call as the console makes it: wall time on the
 * client, request to parsed JSON. The appliance and the client share one thread here, as they would
 * not in production, so the figure is an upper bound for the server's part.
 *
 * It also times the pieces of the handler in-process (SQLite read, engine stat/runState per port,
 * JSON.stringify, the per-request auth check and request-log insert) so an over-budget figure can be
 * attributed without a profiler.
 *
 *   node_modules/.bin/bun bench/api/port-list.ts
 */

import { loadavg } from "node:os";
import { portItem } from "../../appliance/web/api/ports.ts";
import { startTestAppliance, tempDir } from "../../test/support/appliance.ts";
import {
  createPorts,
  listVerdict,
  round,
  roundAll,
  summary,
  timedGet,
  timeGets,
  timeRuns,
} from "./fixture.ts";

export const PORTS = 1000;
export const RUNS = 50;
export const BUDGET_MS = 50;

export interface RunOptions {
  log?: (line: string) => void;
}

export async function run(opts: RunOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const t = await startTestAppliance(tempDir("pithead-bench-"));
  try {
    const created = performance.now();
    await createPorts(t.client, PORTS);
    const createMs = performance.now() - created;
    log(`created ${PORTS} ports through POST /api/port/new in ${(createMs / 1000).toFixed(1)} s`);

    // The call as the console makes it: fetch, body, JSON.parse, split into those phases.
    const url = `${t.app.url()}/api/ports`;
    const calls = await timeGets(RUNS, 5, () => timedGet<{ items: unknown[] }>(url, t.client.token));
    const count = calls.last.value.items.length;
    if (count !== PORTS) throw new Error(`GET /api/ports listed ${count} ports, expected ${PORTS}`);
    const bytes = calls.last.bytes;
    const text = JSON.stringify(calls.last.value);

    // The pieces of the handler, in-process.
    const { ctx } = t.app;
    const ports = ctx.ports.list();
    const items = await Promise.all(ports.map((p) => portItem(ctx, p)));
    const sqlite = await timeRuns(RUNS, 3, () => ctx.ports.list());
    const assemble = await timeRuns(RUNS, 3, () => Promise.all(ports.map((p) => portItem(ctx, p))));
    // the engine's figures come from its thread: one message each way for all the ports
    const engine = await timeRuns(RUNS, 3, () =>
      Promise.all(
        ports.map((p) => {
          ctx.engine.runState(p.id);
          return ctx.engine.stat(p.id);
        }),
      ),
    );
    const stringify = await timeRuns(RUNS, 3, () => JSON.stringify({ items }));
    const parse = await timeRuns(RUNS, 3, () => JSON.parse(text));
    const auth = await timeRuns(RUNS, 3, () => ctx.tokens.valid(t.client.token));
    const requestLog = await timeRuns(RUNS, 3, () =>
      ctx.logs.add("request", "GET /api/ports 200 0.0ms (bench)", "127.0.0.1"),
    );

    const w = summary(calls.total);
    const result = roundAll({
      ports: PORTS,
      runs: RUNS,
      median_ms: w.median,
      p95_ms: w.p95,
      min_ms: w.min,
      max_ms: w.max,
      budget_ms: BUDGET_MS,
      load_avg_1m: loadavg()[0] ?? 0,
      response_bytes: bytes,
      create_ports_s: createMs / 1000,
      client_headers_median_ms: summary(calls.headers).median,
      client_body_median_ms: summary(calls.body).median,
      client_parse_median_ms: summary(calls.parse).median,
      sqlite_list_median_ms: summary(sqlite).median,
      assemble_items_median_ms: summary(assemble).median,
      engine_stat_state_median_ms: summary(engine).median,
      json_stringify_median_ms: summary(stringify).median,
      json_parse_median_ms: summary(parse).median,
      auth_check_median_ms: summary(auth).median,
      request_log_insert_median_ms: summary(requestLog).median,
    });
    log(
      `GET /api/ports, ${PORTS} ports, ${(bytes / 1024).toFixed(0)} KiB: median ${round(w.median)} ms, ` +
        `p95 ${round(w.p95)} ms over ${RUNS} calls — ${listVerdict(w.median, w.p95, BUDGET_MS)}`,
    );
    log(
      `  client phases (median): to response headers ${result.client_headers_median_ms} ms, ` +
        `body ${result.client_body_median_ms} ms, JSON.parse ${result.client_parse_median_ms} ms`,
    );
    log(
      `  in-process pieces (median): SQLite list ${result.sqlite_list_median_ms} ms, ` +
        `items incl. engine ${result.assemble_items_median_ms} ms ` +
        `(engine stat+runState ${result.engine_stat_state_median_ms} ms), ` +
        `JSON.stringify ${result.json_stringify_median_ms} ms, JSON.parse ${result.json_parse_median_ms} ms, ` +
        `auth ${result.auth_check_median_ms} ms, request-log insert ${result.request_log_insert_median_ms} ms`,
    );
    return result;
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  const result = await run();
  console.log(JSON.stringify({ bench: "api.port-list", ...result }));
}
