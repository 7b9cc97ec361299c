/**
 * Trust benchmark (issue 8): a proxied share's round trip while hostile requests hit the console of
 * the same appliance process — the xlsx that declares A1:XFD1048576, 8 MiB unauthenticated bodies,
 * deeply nested JSON, a captcha flood, wrong logins. The appliance runs as its own process (as
 * systemd runs it), with one Pool-mode port in front of a pool that trusts shares; 200 miners send
 * shares at a fixed rate from this process; the hostile requests come from a worker thread, so
 * building them never delays the miners' generator. Reported: share round trip p50/p99 with no
 * hostile traffic, with each kind alone, and with all of them at once, and how the appliance
 * answered the hostile requests.
 *
 *   node_modules/.bin/bun bench/api/hostile-latency.ts
 */
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { login } from "../../test/delivery/login.ts";
import { Client, freePort, portBody, TEST_CAPTCHA, tempDir } from "../../test/support/appliance.ts";
import { spawnAppliance } from "../../test/support/process.ts";
import { TestPool } from "../../test/support/stratum/test-pool.ts";
import { Fleet, percentile } from "../engine/fake-miner.ts";
import { paced } from "../engine/scenarios.ts";
import type { HostileKind, HostileOrder } from "./hostile-worker.ts";

const MINERS = 200;
const SHARES_PER_SECOND = 1_000;
const KINDS: HostileKind[] = [
  "xlsx range bomb",
  "8 MiB public body",
  "nested-array body",
  "captcha flood",
  "wrong logins",
];

export interface HostilePhase {
  hostile: string;
  shares: number;
  p50Ms: number;
  p99Ms: number;
  /** answers to the hostile requests, by kind and status */
  answers: Record<string, number>;
}

async function phase(
  fleet: Fleet,
  order: HostileOrder | null,
  ms: number,
): Promise<Omit<HostilePhase, "hostile">> {
  let worker: Worker | null = null;
  let answers: Promise<Record<string, number>> = Promise.resolve({});
  if (order !== null) {
    const w = new Worker(new URL("./hostile-worker.ts", import.meta.url).href);
    worker = w;
    answers = new Promise((resolve) => {
      w.onmessage = (e: MessageEvent<Record<string, number>>) => resolve(e.data);
    });
    w.postMessage(order);
  }
  const latencies = await paced(fleet, SHARES_PER_SECOND, ms, 1_000);
  worker?.postMessage("stop");
  const counts = await answers;
  worker?.terminate();
  return {
    shares: latencies.length,
    p50Ms: Math.round(percentile(latencies, 50) * 1000) / 1000,
    p99Ms: Math.round(percentile(latencies, 99) * 1000) / 1000,
    answers: counts,
  };
}

export async function run(log: (line: string) => void = console.log): Promise<HostilePhase[]> {
  const dataDir = tempDir("pithead-hostile-");
  const app = await spawnAppliance(dataDir);
  const pool = await TestPool.start({
    trustShares: true,
    difficulty: 1,
    extranonce2Size: 8,
    jobIntervalMs: 1000,
    merkleBranches: 4,
  });
  let fleet: Fleet | null = null;
  try {
    const password = readFileSync(join(dataDir, "initial-password"), "utf8").trim();
    const token = await login(app.url, password, TEST_CAPTCHA);
    const client = new Client(app.url);
    client.token = token;
    const port = freePort();
    const created = await client.post(
      "/api/port/new",
      portBody({
        port,
        pool_address: pool.address,
        mode: ProxyMode.POOL,
        proxy_addr: "farm",
        proxy_device: "bench",
        status: 1,
        wallets: [
          { addr: "feeaddr", device: "fee", pool_address: pool.address, pool_protocol: 0, ratio: 0.02 },
        ],
      }),
    );
    if (created.status !== 200) throw new Error(`port not created: ${JSON.stringify(created.body)}`);
    fleet = new Fleet({ port, count: MINERS, user: (i) => `w${i}.r${i}` });
    await fleet.connect();
    const results: HostilePhase[] = [];
    const record = (hostile: string, r: Omit<HostilePhase, "hostile">) => {
      results.push({ hostile, ...r });
      log(
        `${hostile}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms over ${r.shares} shares ${JSON.stringify(r.answers)}`,
      );
    };
    const base = { base: app.url, token, concurrency: 4 };
    record("none", await phase(fleet, null, 8_000));
    for (const kind of KINDS) record(kind, await phase(fleet, { ...base, kinds: [kind] }, 5_000));
    record("all at once", await phase(fleet, { ...base, kinds: KINDS }, 8_000));
    record("none, after", await phase(fleet, null, 5_000));
    return results;
  } finally {
    fleet?.close();
    pool.stop();
    app.proc.kill();
    await app.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function hostileMarkdown(results: readonly HostilePhase[]): string {
  return [
    "| hostile requests | shares | p50 (ms) | p99 (ms) | the appliance's answers to them |",
    "|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.hostile} | ${r.shares} | ${r.p50Ms} | ${r.p99Ms} | ${
          Object.entries(r.answers)
            .map(([k, v]) => `${k}: ${v}`)
            .join(", ") || "—"
        } |`,
    ),
  ].join("\n");
}

if (import.meta.main) {
  const results = await run();
  console.log(hostileMarkdown(results));
  console.log(
    `(load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")})`,
  );
  process.exit(0);
}
