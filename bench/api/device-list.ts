/**
 * Control-plane benchmark: the device list of a port with 10,000 devices,
 * `GET /api/port/{id}/workers` (budget ≤ 50 ms).
 *
 * Runs the appliance as its own process (as systemd runs it; 10,000 miners and the proxy's 10,000
 * sockets would not fit one process's descriptor limit), creates one Pool-mode port through the API
 * in front of a pool that trusts shares, and connects 10,000 stratum miners to it
 * (bench/engine/fake-miner.ts), each sending a few shares so its hashrate windows are filled: the
 * devices live in the engine's registry on the engine's thread, as a farm's do. Timed as the
 * console makes the call: wall time on the client, request to parsed JSON, split into its phases.
 *
 *   node_modules/.bin/bun bench/api/device-list.ts      (DEVICES=N for another farm size)
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { login } from "../../test/delivery/login.ts";
import { Client, portBody, TEST_CAPTCHA, tempDir } from "../../test/support/appliance.ts";
import { spawnAppliance } from "../../test/support/process.ts";
import { TestPool } from "../../test/support/stratum/test-pool.ts";
import { Fleet } from "../engine/fake-miner.ts";
import { BASE_PORT, listVerdict, round, roundAll, summary, timedGet, timeGets } from "./fixture.ts";

export const DEVICES = Number(process.env.DEVICES ?? 10_000);
export const RUNS = 50;
export const BUDGET_MS = 50;
/** devices per page, as the console asks for them */
const PAGE = 100;
/** accepted shares sent by each device before the list is timed */
const SHARES_PER_DEVICE = 5;

export interface RunOptions {
  log?: (line: string) => void;
}

export async function run(opts: RunOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const dataDir = tempDir("pithead-bench-");
  const app = await spawnAppliance(dataDir);
  const pool = await TestPool.start({ trustShares: true, extranonce2Size: 8 });
  let fleet: Fleet | null = null;
  try {
    const client = new Client(app.url);
    client.token = await login(
      app.url,
      readFileSync(join(dataDir, "initial-password"), "utf8").trim(),
      TEST_CAPTCHA,
    );
    const made = await client.post<{ id: number }>(
      "/api/port/new",
      portBody({
        port: BASE_PORT,
        status: 1,
        name: "bench",
        pool_address: pool.address,
        mode: ProxyMode.POOL,
        // Pool mode: one pool session per 256 miners (Efficient would need 20,000 more sockets)
        proxy_addr: "bc1qbenchfarm",
        proxy_device: "bench",
        wallets: [
          { addr: "bc1qfee", device: "fee1", pool_address: pool.address, pool_protocol: 0, ratio: 0.02 },
        ],
      }),
    );
    if (made.status !== 200)
      throw new Error(`POST /api/port/new: ${made.status} ${JSON.stringify(made.body)}`);
    const portId = made.body.id;

    fleet = new Fleet({
      port: BASE_PORT,
      count: DEVICES,
      user: (i) => `bc1qbenchwallet${(i % 100).toString().padStart(3, "0")}.rig${i}`,
    });
    await fleet.connect();
    log(`${DEVICES} miners connected`);
    for (let s = 0; s < SHARES_PER_DEVICE; s++) {
      for (let i = 0; i < DEVICES; i++) fleet.submit(i);
      while (fleet.answered < (s + 1) * DEVICES) await Bun.sleep(10);
    }
    log(`${DEVICES} miners on port ${BASE_PORT} (id ${portId}), ${fleet.accepted} shares accepted`);

    const url = `${app.url}/api/port/${portId}/workers`;
    const calls = await timeGets(RUNS, 5, () => timedGet<unknown[]>(url, client.token));
    const count = calls.last.value.length;
    if (count !== DEVICES) throw new Error(`GET ${url} listed ${count} devices, expected ${DEVICES}`);
    const bytes = calls.last.bytes;
    // The console's call: one page of PAGE devices, sorted by 15-minute hashrate, with the total.
    const pageCalls = await timeGets(RUNS, 5, () =>
      timedGet<{ total: number }>(`${url}?limit=${PAGE}&sort=m15&order=desc`, client.token),
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
      `GET /api/port/{id}/workers?limit=${PAGE}&sort=m15 (the console's page): median ` +
        `${result.page_median_ms} ms, p95 ${result.page_p95_ms} ms, ${(pageBytes / 1024).toFixed(0)} KiB — ` +
        `${listVerdict(result.page_median_ms ?? 0, result.page_p95_ms ?? 0, BUDGET_MS)}`,
    );
    return result;
  } finally {
    fleet?.close();
    pool.stop();
    app.proc.kill("SIGTERM");
    await app.proc.exited;
  }
}

if (import.meta.main) {
  const result = await run();
  console.log(JSON.stringify({ bench: "api.device-list", ...result }));
}
