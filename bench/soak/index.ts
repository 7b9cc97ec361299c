/**
 * Soak (`make soak`, not part of `make test`): the whole appliance in its own process, one Efficient
 * port with a 2 % fee wallet, and N fake miners that churn: each mines for a while, leaves, and
 * comes back under a new worker name, as rigs that reboot or are renamed do. Every `--every` seconds
 * the appliance's own /api/metrics (read with the metrics token, as Prometheus would) gives RSS,
 * heap, open descriptors, miner and pool sessions, known devices and the SQLite size; they go to a
 * CSV and a PNG plot, and the slope of RSS per hour after the warm-up is printed.
 *
 *   bun bench/soak/index.ts [--miners 100] [--minutes 60] [--every 60] [--warmup 5] [--out bench/out]
 *                           [--names new|same]
 *
 * `--names same`: miners come back under their old names, so the appliance's device registry (which
 * keeps an offline device 24 h) stops growing; it tells a leak from the registry's retention.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { encodePng } from "../../appliance/auth/png.ts";
import { Client, freePort, portBody, tempDir } from "../../test/support/appliance.ts";
import { spawnAppliance } from "../../test/support/process.ts";
import { TestPool } from "../../test/support/stratum/test-pool.ts";
import { Fleet } from "../engine/fake-miner.ts";
import { type Churn, startChurn } from "./churn.ts";
import { plot } from "./plot.ts";
import { COLUMNS, type Sample, slopePerHour, toCsv } from "./samples.ts";

interface Options {
  names: "new" | "same";
  miners: number;
  minutes: number;
  every: number;
  warmup: number;
  out: string;
}

function options(argv: string[]): Options {
  const o: Options = { names: "new", miners: 100, minutes: 60, every: 60, warmup: 5, out: "bench/out" };
  for (let i = 0; i < argv.length; i += 2) {
    const key = (argv[i] ?? "").replace(/^--/, "");
    const value = argv[i + 1] ?? "";
    if (key === "out") o.out = value;
    else if (key === "names" && (value === "new" || value === "same")) o.names = value;
    else if (key === "miners" || key === "minutes" || key === "every" || key === "warmup") {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--${key} wants a positive number, not "${value}"`);
      o[key] = n;
    } else
      throw new Error(
        `unknown option --${key} ${value} (miners, minutes, every, warmup, out, names new|same)`,
      );
  }
  return o;
}

/** The sum over every series of each metric in a scrape (the port's series add up to the appliance). */
function readMetrics(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = line.match(/^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/);
    if (!m?.[1]) continue;
    const key =
      m[1] === "pithead_port_shares_total" && m[2]?.includes('result="accepted"') ? "accepted" : m[1];
    sums.set(key, (sums.get(key) ?? 0) + Number(m[3]));
  }
  return sums;
}

const o = options(process.argv.slice(2));
mkdirSync(o.out, { recursive: true });
const dataDir = tempDir("pithead-soak-");
const main = await TestPool.start({
  trustShares: true,
  difficulty: 1,
  extranonce2Size: 8,
  jobIntervalMs: 30_000,
});
const fee = await TestPool.start({
  trustShares: true,
  difficulty: 1,
  extranonce2Size: 8,
  jobIntervalMs: 30_000,
});
const appliance = await spawnAppliance(dataDir);
const client = new Client(appliance.url);
const login = await client.login("admin", readFileSync(join(dataDir, "initial-password"), "utf8").trim());
if (login.status !== 200) throw new Error(`login: ${JSON.stringify(login.body)}`);
const proxyPort = freePort();
const created = await client.post<{ id: number }>(
  "/api/port/new",
  portBody({
    port: proxyPort,
    pool_address: main.address,
    status: 1,
    wallets: [{ addr: "feewallet", device: "fee", pool_address: fee.address, pool_protocol: 0, ratio: 0.02 }],
  }),
);
if (created.status !== 200) throw new Error(`port: ${JSON.stringify(created.body)}`);
const token = (await client.get<{ token: string }>("/api/metrics/token")).body.token;

const generation: number[] = Array.from({ length: o.miners }, () => 0);
const fleet = new Fleet({ port: proxyPort, count: o.miners, user: (i) => `soak${i}.g${generation[i]}` });
await fleet.connect();
const started = performance.now();
const endAt = started + o.minutes * 60_000;
let done = false;
// one share every 5 s per miner at the pool's difficulty, as a rig at a pool's usual difficulty
const hashing = fleet.hashAt(0.2, () => done);
const churn: Churn = startChurn(fleet, o.names === "new" ? generation : null, () => done);

const samples: Sample[] = [];
const sample = async () => {
  const res = await fetch(`${appliance.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const m = readMetrics(await res.text());
  const s: Sample = {
    minute: (performance.now() - started) / 60_000,
    rssBytes: m.get("process_resident_memory_bytes") ?? 0,
    heapBytes: m.get("pithead_js_heap_used_bytes") ?? 0,
    openFds: m.get("process_open_fds") ?? 0,
    minersConnected: m.get("pithead_port_miners_connected") ?? 0,
    poolSessions: m.get("pithead_port_pool_sessions") ?? 0,
    devicesKnown: m.get("pithead_port_devices_known") ?? 0,
    sqliteBytes: m.get("pithead_database_size_bytes") ?? 0,
    acceptedShares: m.get("accepted") ?? 0,
    reconnects: churn.reconnects,
    load1: loadavg()[0] ?? 0,
  };
  samples.push(s);
  console.log(COLUMNS.map((c) => `${c}=${Math.round(s[c] * 100) / 100}`).join(" "));
};

try {
  await sample();
  while (performance.now() < endAt) {
    await Bun.sleep(Math.min(o.every * 1000, endAt - performance.now()));
    await sample();
  }
} finally {
  done = true;
  await hashing;
  await churn.stopped;
  fleet.close();
  appliance.proc.kill("SIGTERM");
  await appliance.proc.exited;
  main.stop();
  fee.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

writeFileSync(join(o.out, "soak.csv"), toCsv(samples));
const mb = (b: number) => b / 2 ** 20;
const figure = plot(
  samples.map((s) => s.minute),
  [
    { title: "RSS MB", values: samples.map((s) => mb(s.rssBytes)) },
    { title: "JS HEAP USED MB", values: samples.map((s) => mb(s.heapBytes)) },
    { title: "OPEN FDS", values: samples.map((s) => s.openFds) },
    {
      title: "MINER CONNECTIONS + POOL SESSIONS",
      values: samples.map((s) => s.minersConnected + s.poolSessions),
    },
    { title: "SQLITE MB (DB + WAL)", values: samples.map((s) => mb(s.sqliteBytes)) },
  ],
  `SOAK: ${o.miners} MINERS CHURNING (${o.names.toUpperCase()} NAMES), ${o.minutes} MIN, SAMPLE EVERY ${o.every} S`,
);
writeFileSync(join(o.out, "soak.png"), encodePng(figure.width, figure.height, figure.rgb));
const warm = samples.filter((s) => s.minute >= o.warmup);
console.log(
  JSON.stringify({
    miners: o.miners,
    minutes: o.minutes,
    names: o.names,
    samples: samples.length,
    reconnects: churn.reconnects,
    rssMbFirst: mb(samples[0]?.rssBytes ?? 0),
    rssMbLast: mb(samples[samples.length - 1]?.rssBytes ?? 0),
    rssMbPerHourAfterWarmup: mb(slopePerHour(warm, (s) => s.rssBytes)),
    heapMbPerHourAfterWarmup: mb(slopePerHour(warm, (s) => s.heapBytes)),
    devicesKnownLast: samples[samples.length - 1]?.devicesKnown ?? 0,
    csv: join(o.out, "soak.csv"),
    png: join(o.out, "soak.png"),
  }),
);
