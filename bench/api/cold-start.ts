/**
 * Control-plane benchmark: cold start to serving the console with 1,000 ports configured
 * (budget ≤ 500 ms).
 *
 * Builds a data dir holding 1,000 closed ports through the API, then starts the appliance as its own
 * process (as systemd would) five times and measures from spawn to the first successful `GET /`
 * (index.html). The same is measured on a data dir with no ports, so the cost of the ports can be
 * told apart from the runtime and module loading. When the console is not built (no
 * ui/dist/index.html) it measures until `/healthz` answers instead and says so.
 *
 * The console is served from a snapshot of ui/dist (PITHEAD_CONSOLE_DIR, set through env(1)), so a rebuild running at the
 * same time cannot change what is measured. PITHEAD_BENCH_EXE=path measures a compiled executable
 * (`make dist`, console embedded) instead of `bun appliance/main.ts`.
 *
 *   node_modules/.bin/bun bench/api/cold-start.ts
 */

import { cpSync, existsSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { startTestAppliance, tempDir } from "../../test/support/appliance.ts";
import { BUN, spawnAppliance } from "../../test/support/process.ts";
import { portsDataDir, round, roundAll, summary, verdict } from "./fixture.ts";

export const PORTS = 1000;
export const RUNS = 5;
export const BASELINE_RUNS = 3;
export const BUDGET_MS = 500;

const ROOT = join(import.meta.dir, "..", "..");

export interface RunOptions {
  log?: (line: string) => void;
  /** an existing data dir with the ports configured (it is left in place) */
  dataDir?: string;
}

interface Sample {
  /** spawn → the "listening on" line */
  listenMs: number;
  /** spawn → first successful answer on the measured path */
  readyMs: number;
}

/** One cold start: spawn, wait for the listening line, poll `path` until it answers 200. */
async function coldStart(dataDir: string, path: string, consoleDir: string | null): Promise<Sample> {
  const exe = process.env.PITHEAD_BENCH_EXE;
  const appliance = exe ? [exe] : [BUN, join(ROOT, "appliance/main.ts")];
  // Bun.spawn does not pass on env changes made at run time, so the console dir goes through env(1).
  const command = consoleDir
    ? ["/usr/bin/env", `PITHEAD_CONSOLE_DIR=${consoleDir}`, ...appliance]
    : appliance;
  const t0 = performance.now();
  const spawned = await spawnAppliance(dataDir, command);
  const listenMs = performance.now() - t0;
  try {
    const deadline = t0 + 30_000;
    for (;;) {
      const res = await fetch(`${spawned.url}${path}`).catch(() => null);
      if (res?.status === 503 && path === "/")
        throw new Error("GET / answered 503: the console is not built");
      if (res?.status === 200) {
        const body = await res.text();
        if (path === "/" && !/<html/i.test(body)) throw new Error("GET / did not answer the console's HTML");
        return { listenMs, readyMs: performance.now() - t0 };
      }
      if (performance.now() > deadline) throw new Error(`${path} never answered 200:\n${spawned.output()}`);
      await Bun.sleep(2);
    }
  } finally {
    spawned.proc.kill("SIGTERM");
    await spawned.proc.exited;
  }
}

async function measure(
  dataDir: string,
  path: string,
  consoleDir: string | null,
  runs: number,
): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < runs; i++) out.push(await coldStart(dataDir, path, consoleDir));
  return out;
}

export async function run(opts: RunOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  // A compiled executable serves the console embedded in it; the sources serve a snapshot of ui/dist.
  const exe = process.env.PITHEAD_BENCH_EXE;
  const built = exe !== undefined || existsSync(join(ROOT, "ui/dist/index.html"));
  const path = built ? "/" : "/healthz";
  const snapshot = tempDir("pithead-bench-console-");
  const consoleDir = built && !exe ? snapshot : null;
  const made: string[] = [snapshot];
  try {
    if (exe) {
      log(`measuring the executable ${exe} (console embedded in it)`);
    } else if (built) {
      cpSync(join(ROOT, "ui/dist"), snapshot, { recursive: true });
    } else {
      log(
        "ui/dist/index.html is missing (console not built): measuring until /healthz answers instead of GET /",
      );
    }

    let dataDir = opts.dataDir;
    let buildMs = 0;
    if (!dataDir) {
      const fixture = await portsDataDir(PORTS);
      dataDir = fixture.dataDir;
      buildMs = fixture.buildMs;
      made.push(dataDir);
      log(`built a data dir with ${PORTS} ports through the API in ${(buildMs / 1000).toFixed(1)} s`);
    }

    // Baseline: the same start with no ports (the dir has been started once, so no first-start work).
    const empty = await startTestAppliance(tempDir("pithead-bench-"), false);
    await empty.close(true);
    made.push(empty.dataDir);
    await coldStart(empty.dataDir, path, consoleDir); // warm the OS file cache for the runtime and sources
    const base = await measure(empty.dataDir, path, consoleDir, BASELINE_RUNS);
    const full = await measure(dataDir, path, consoleDir, RUNS);

    const ready = summary(full.map((s) => s.readyMs));
    const listen = summary(full.map((s) => s.listenMs));
    const baseReady = summary(base.map((s) => s.readyMs));
    const result = roundAll({
      ports: PORTS,
      runs: RUNS,
      console_built: built ? 1 : 0,
      median_ms: ready.median,
      min_ms: ready.min,
      max_ms: ready.max,
      listening_median_ms: listen.median,
      budget_ms: BUDGET_MS,
      load_avg_1m: loadavg()[0] ?? 0,
      no_ports_median_ms: baseReady.median,
      ports_cost_ms: ready.median - baseReady.median,
      build_data_dir_s: buildMs / 1000,
    });
    const what = built ? "first GET / (console)" : "first /healthz (console not built)";
    log(
      `cold start to ${what}, ${PORTS} ports: median ${round(ready.median)} ms over ${RUNS} runs ` +
        `(min ${round(ready.min)}, max ${round(ready.max)}; listening line at ${round(listen.median)} ms) — ` +
        verdict(ready.median, BUDGET_MS),
    );
    log(
      `  same with no ports: median ${round(baseReady.median)} ms over ${BASELINE_RUNS} runs; ` +
        `the ${PORTS} ports add ${round(ready.median - baseReady.median)} ms`,
    );
    return result;
  } finally {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const result = await run({ dataDir: process.env.PITHEAD_BENCH_DATA_DIR });
  console.log(JSON.stringify({ bench: "api.cold-start", ...result }));
}
