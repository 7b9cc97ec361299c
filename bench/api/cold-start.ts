/**
 * Control-plane benchmark: cold start to serving the console with 1,000 ports configured
 * (budget ≤ 500 ms).
 *
 * Builds a data dir holding 1,000 closed ports through the API, then starts the appliance as its own
 * process (as systemd would) five times and measures from spawn to the first successful `GET /`
 * (index.html). Two ways to run it are measured:
 *   - sources: `bun appliance/main.ts run ...` (what test/support/process.ts spawns);
 *   - compiled: a `bun build --compile --minify` executable of the same sources, built into a temp dir
 *     with the flags of scripts/dist.ts (what the appliance ships). PITHEAD_BENCH_EXE=path measures
 *     a given executable instead (e.g. dist/pithead-linux-x64, console embedded in it).
 * Each is also measured on a data dir with no ports, so the ports' cost can be told apart from the
 * runtime and module loading, and the start is taken apart piece by piece (see profile()).
 *
 * The console is served from a snapshot of ui/dist (PITHEAD_CONSOLE_DIR, passed through env(1)), so a
 * rebuild running at the same time cannot change what is measured. When the console is not built
 * (no ui/dist/index.html) it measures until `/healthz` answers instead and says so.
 *
 *   node_modules/.bin/bun bench/api/cold-start.ts
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openFoundation } from "../../appliance/app.ts";
import { parseArgs } from "../../appliance/config.ts";
import { Engine } from "../../appliance/engine/engine.ts";
import { pushOverrides } from "../../appliance/store/ratios.ts";
import { StaticAssets } from "../../appliance/web/static.ts";
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

interface Target {
  /** the command that starts the appliance; spawnAppliance appends `run --data-dir ...` */
  command: string[];
  /** what GET answers to wait for: "/" (the console) or "/healthz" */
  path: string;
}

/** One cold start: spawn, wait for the listening line, poll the path until it answers 200. */
async function coldStart(dataDir: string, target: Target): Promise<Sample> {
  const t0 = performance.now();
  const spawned = await spawnAppliance(dataDir, target.command);
  const listenMs = performance.now() - t0;
  try {
    const deadline = t0 + 30_000;
    for (;;) {
      const res = await fetch(`${spawned.url}${target.path}`).catch(() => null);
      if (res?.status === 503 && target.path === "/")
        throw new Error("GET / answered 503: the console is not built");
      if (res?.status === 200) {
        const body = await res.text();
        if (target.path === "/" && !/<html/i.test(body))
          throw new Error("GET / did not answer the console's HTML");
        return { listenMs, readyMs: performance.now() - t0 };
      }
      if (performance.now() > deadline)
        throw new Error(`${target.path} never answered 200:\n${spawned.output()}`);
      await Bun.sleep(2);
    }
  } finally {
    spawned.proc.kill("SIGTERM");
    await spawned.proc.exited;
  }
}

/** A warm-up start on the empty dir, then the baseline and the measured runs. */
async function measure(
  target: Target,
  emptyDir: string,
  portsDir: string,
): Promise<{ ready: number[]; listen: number[]; base: number[] }> {
  await coldStart(emptyDir, target); // warms the OS file cache for the runtime and the code
  const base: number[] = [];
  for (let i = 0; i < BASELINE_RUNS; i++) base.push((await coldStart(emptyDir, target)).readyMs);
  const ready: number[] = [];
  const listen: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await coldStart(portsDir, target);
    ready.push(s.readyMs);
    listen.push(s.listenMs);
  }
  return { ready, listen, base };
}

/** Compiles appliance/main.ts like scripts/dist.ts does (host target, no embedded console). */
async function compile(outFile: string): Promise<void> {
  const proc = Bun.spawn(
    [
      BUN,
      "build",
      "--compile",
      join(ROOT, "appliance/main.ts"),
      "--minify",
      "--no-compile-autoload-dotenv",
      "--no-compile-autoload-bunfig",
      "--outfile",
      outFile,
    ],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`bun build --compile failed (${code}):\n${err}`);
}

/** Median of 3 fresh processes: how long `import(specifier)` takes from the sources. */
async function importMs(specifier: string): Promise<number> {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const p = Bun.spawn([BUN, "-e", code], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(p.stdout).text();
    if ((await p.exited) !== 0)
      throw new Error(`import ${specifier}: ${await new Response(p.stderr).text()}`);
    samples.push(Number(out.trim()));
  }
  return summary(samples).median;
}

/** Median of 3: spawn to exit of a Bun process that does nothing (the runtime's own start). */
async function runtimeMs(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await Bun.spawn([BUN, "-e", "0"], { stdout: "ignore", stderr: "ignore" }).exited;
    samples.push(performance.now() - t0);
  }
  return summary(samples).median;
}

/**
 * Where a start spends its time, piece by piece: the runtime, module loading from the sources (the
 * whole appliance, and the heaviest packages alone), the console's in-memory gzip, and a replica of
 * startAppliance's loop over the stored ports (list, ratio overrides, engine.apply).
 */
async function profile(dataDir: string, consoleDir: string | null): Promise<Record<string, number>> {
  const out: Record<string, number> = {
    profile_runtime_ms: await runtimeMs(),
    profile_import_appliance_ms: await importMs(join(ROOT, "appliance/appliance.ts")),
    profile_import_xlsx_ms: await importMs("@e965/xlsx"),
    profile_import_node_forge_ms: await importMs("node-forge"),
    profile_import_zod_ms: await importMs("zod"),
  };
  if (consoleDir) {
    const t0 = performance.now();
    StaticAssets.fromDirectory(consoleDir);
    out.profile_console_gzip_ms = performance.now() - t0;
  }
  const f = openFoundation(
    parseArgs(["run", "--data-dir", dataDir, "--web-port", "0", "--host", "127.0.0.1"]),
  );
  const engine = new Engine({
    tls: () => f.certificates.current(),
    isIpBanned: () => false,
    isWalletBanned: () => false,
    log: () => {},
  });
  try {
    const t0 = performance.now();
    const ports = f.ports.list();
    const t1 = performance.now();
    let ratiosMs = 0;
    for (const port of ports) {
      const r0 = performance.now();
      pushOverrides(engine, port.id, f.ratios.list(port.id));
      ratiosMs += performance.now() - r0;
      await engine.apply(port);
    }
    out.profile_ports_list_ms = t1 - t0;
    out.profile_ports_ratio_queries_ms = ratiosMs;
    out.profile_ports_loop_ms = performance.now() - t1;
  } finally {
    await engine.shutdown();
    f.logs.close();
    f.db.close();
  }
  return out;
}

export async function run(opts: RunOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const built = existsSync(join(ROOT, "ui/dist/index.html"));
  const path = built ? "/" : "/healthz";
  const work = tempDir("pithead-bench-cold-");
  const made: string[] = [work];
  try {
    const consoleDir = built ? join(work, "console") : null;
    if (consoleDir) cpSync(join(ROOT, "ui/dist"), consoleDir, { recursive: true });
    else
      log(
        "ui/dist/index.html is missing (console not built): measuring until /healthz answers instead of GET /",
      );
    // Bun.spawn does not pass on env changes made at run time, so the console dir goes through env(1).
    const withConsole = (command: string[]) =>
      consoleDir ? ["/usr/bin/env", `PITHEAD_CONSOLE_DIR=${consoleDir}`, ...command] : command;

    const givenExe = process.env.PITHEAD_BENCH_EXE;
    const exe = givenExe ?? join(work, "pithead");
    const compileStarted = performance.now();
    if (!givenExe) await compile(exe);
    const compileMs = performance.now() - compileStarted;
    const sources: Target = { command: withConsole([BUN, join(ROOT, "appliance/main.ts")]), path };
    // A given executable serves the console embedded in it, as shipped.
    const compiled: Target = givenExe
      ? { command: [givenExe], path: "/" }
      : { command: withConsole([exe]), path };
    log(
      givenExe
        ? `compiled: the executable ${givenExe} (console embedded in it)`
        : `compiled: bun build --compile --minify in ${(compileMs / 1000).toFixed(1)} s`,
    );

    let dataDir = opts.dataDir;
    let buildMs = 0;
    if (!dataDir) {
      const fixture = await portsDataDir(PORTS);
      dataDir = fixture.dataDir;
      buildMs = fixture.buildMs;
      made.push(dataDir);
      log(`built a data dir with ${PORTS} ports through the API in ${(buildMs / 1000).toFixed(1)} s`);
    }
    // The baseline dir has been started once, so its starts do no first-start work either.
    const empty = await startTestAppliance(tempDir("pithead-bench-"), false);
    await empty.close(true);
    made.push(empty.dataDir);

    const src = await measure(sources, empty.dataDir, dataDir);
    const bin = await measure(compiled, empty.dataDir, dataDir);
    const pieces = await profile(dataDir, consoleDir);

    const s = summary(src.ready);
    const b = summary(bin.ready);
    const result = roundAll({
      ports: PORTS,
      runs: RUNS,
      console_built: built ? 1 : 0,
      budget_ms: BUDGET_MS,
      load_avg_1m: loadavg()[0] ?? 0,
      median_ms: s.median,
      min_ms: s.min,
      max_ms: s.max,
      listening_median_ms: summary(src.listen).median,
      no_ports_median_ms: summary(src.base).median,
      compiled_median_ms: b.median,
      compiled_min_ms: b.min,
      compiled_max_ms: b.max,
      compiled_listening_median_ms: summary(bin.listen).median,
      compiled_no_ports_median_ms: summary(bin.base).median,
      build_data_dir_s: buildMs / 1000,
      ...pieces,
    });
    const what = built ? "first GET / (console)" : "first /healthz (console NOT built)";
    for (const [name, r, x] of [
      ["sources ", src, s],
      ["compiled", bin, b],
    ] as const) {
      const base = summary(r.base).median;
      log(
        `cold start to ${what}, ${PORTS} ports, ${name}: median ${round(x.median)} ms over ${RUNS} runs ` +
          `(min ${round(x.min)}, max ${round(x.max)}; no ports: ${round(base)} ms) — ${verdict(x.median, BUDGET_MS)}`,
      );
    }
    log(
      `  pieces: runtime ${result.profile_runtime_ms} ms; from the sources, import appliance.ts ` +
        `${result.profile_import_appliance_ms} ms (alone: @e965/xlsx ${result.profile_import_xlsx_ms}, ` +
        `node-forge ${result.profile_import_node_forge_ms}, zod ${result.profile_import_zod_ms}); ` +
        `console gzip ${result.profile_console_gzip_ms ?? "n/a"} ms; ${PORTS} ports: list ` +
        `${result.profile_ports_list_ms} ms + loop ${result.profile_ports_loop_ms} ms ` +
        `(of which ratio queries ${result.profile_ports_ratio_queries_ms} ms)`,
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
