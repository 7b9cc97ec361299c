/**
 * The service's main process (`pithead bundle supervise`, started by systemd). It runs the active release as
 * a child, starts it again at once when it exits with 75 (a restart the program asked for), and
 * finishes an update: while DATA/ota/pending.json exists the new release must pass its health check
 * within `healthTimeoutMs` (one minute), else it is stopped, `current` is switched back, the database
 * backup is restored and the previous release is started. Any other exit ends the supervisor with the
 * child's code, and systemd (Restart=always) starts everything again.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { RESTART_EXIT_CODE } from "./apply.ts";
import { restoreDatabase } from "./db-backup.ts";
import { healthBase, probeHealth } from "./health.ts";
import { otaPaths, type Pending } from "./layout.ts";
import { RUNTIME_FILE } from "./manifest.ts";
import { pruneReleases } from "./prune.ts";
import { builtinVersion } from "./releases.ts";
import { activeReleaseDir, switchRelease } from "./switch.ts";
import { logUpdate } from "./update-log.ts";

const STOP_GRACE_MS = 10_000;
const PROBE_INTERVAL_MS = 500;

export type SupervisorEvent =
  | { type: "started"; release: string; pid: number }
  | { type: "listening"; release: string; base: string }
  | { type: "restart"; release: string }
  | { type: "healthy"; version: string }
  | { type: "rolled_back"; from: string; to: string; reason: string };

export interface SupervisorOptions {
  dataDir: string;
  /** runs the built-in release when followed by `run …`: [the executable] or [bun, appliance/main.ts] */
  builtin: string[];
  /** runs an OTA release's app/main.js: the installed executable (as Bun) or bun itself */
  runtime: string;
  /** appended after `run --data-dir DIR` */
  runArgs?: string[];
  healthTimeoutMs?: number;
  onEvent?: (e: SupervisorEvent) => void;
}

export interface Supervisor {
  /** resolves with the exit code the supervisor should end with */
  done: Promise<number>;
  /** stops the child (SIGTERM, then SIGKILL after a grace period) and ends the loop */
  stop(): Promise<number>;
}

async function readPending(dataDir: string): Promise<Pending | null> {
  try {
    return JSON.parse(await readFile(otaPaths(dataDir).pending, "utf8")) as Pending;
  } catch {
    return null;
  }
}

interface Launch {
  label: string;
  cmd: string[];
  env: Record<string, string | undefined>;
}

async function launchFor(opts: SupervisorOptions): Promise<Launch> {
  const run = ["run", "--data-dir", opts.dataDir, ...(opts.runArgs ?? [])];
  const env: Record<string, string | undefined> = {
    ...process.env,
    PITHEAD_BUILTIN_VERSION: builtinVersion(),
    BUN_BE_BUN: undefined,
    PITHEAD_CONSOLE_DIR: undefined,
  };
  const dir = await activeReleaseDir(opts.dataDir);
  if (dir !== null) {
    if (await Bun.file(join(dir, RUNTIME_FILE)).exists()) {
      return { label: dir, cmd: [join(dir, RUNTIME_FILE), ...run], env };
    }
    if (await Bun.file(join(dir, "app/main.js")).exists()) {
      // The installed executable acts as plain Bun with BUN_BE_BUN=1; the release's console is on disk.
      const relEnv = { ...env, BUN_BE_BUN: "1", PITHEAD_CONSOLE_DIR: join(dir, "console") };
      return { label: dir, cmd: [opts.runtime, join(dir, "app/main.js"), ...run], env: relEnv };
    }
    await logUpdate(opts.dataDir, {
      event: "refused",
      message: `release ${dir} is incomplete; running built-in`,
    });
  }
  return { label: "builtin", cmd: [...opts.builtin, ...run], env };
}

/** Copies the child's stdout through and reports the health URL from its start-up line. */
function watchOutput(child: Subprocess<"ignore", "pipe", "inherit">, onBase: (base: string) => void): void {
  const decoder = new TextDecoder();
  let buffered = "";
  void (async () => {
    for await (const chunk of child.stdout) {
      process.stdout.write(chunk);
      buffered += decoder.decode(chunk, { stream: true });
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        const base = healthBase(buffered.slice(0, nl));
        if (base) onBase(base);
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf("\n");
      }
    }
  })();
}

async function stopChild(child: Subprocess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await child.exited;
  clearTimeout(timer);
}

export function startSupervisor(opts: SupervisorOptions): Supervisor {
  const emit = opts.onEvent ?? (() => {});
  const healthTimeoutMs = opts.healthTimeoutMs ?? 60_000;
  let stopping = false;
  let child: Subprocess<"ignore", "pipe", "inherit"> | null = null;

  async function healthy(c: Subprocess, base: () => string | null, version: string): Promise<boolean> {
    const deadline = Date.now() + healthTimeoutMs;
    while (Date.now() < deadline && !stopping) {
      if (c.exitCode !== null || c.signalCode !== null) return false;
      const b = base();
      if (b && (await probeHealth(b, version))) return true;
      await Bun.sleep(PROBE_INTERVAL_MS);
    }
    return false;
  }

  async function rollBack(trial: Pending, reason: string): Promise<void> {
    await switchRelease(opts.dataDir, trial.previous);
    await restoreDatabase(opts.dataDir, trial.db_backup);
    await rm(otaPaths(opts.dataDir).pending, { force: true });
    const message = `${trial.to} failed its health check (${reason}); back on ${trial.from}, database restored`;
    await logUpdate(opts.dataDir, { event: "rolled_back", from: trial.to, to: trial.from, message });
    emit({ type: "rolled_back", from: trial.to, to: trial.from, reason });
  }

  async function abandonRelease(dir: string, reason: string): Promise<void> {
    await switchRelease(opts.dataDir, null);
    await logUpdate(opts.dataDir, {
      event: "rolled_back",
      message: `release ${dir} ${reason}; running built-in`,
    });
    emit({ type: "rolled_back", from: dir, to: "builtin", reason });
  }

  async function loop(): Promise<number> {
    while (!stopping) {
      const trial = await readPending(opts.dataDir);
      const launch = await launchFor(opts);
      let base: string | null = null;
      let c: Subprocess<"ignore", "pipe", "inherit">;
      try {
        c = Bun.spawn(launch.cmd, { env: launch.env, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
      } catch (err) {
        // A release whose executable cannot even be started (damaged, foreign format) must not
        // leave the appliance in a start loop: undo the update, or fall back to the built-in release.
        const reason = `could not start: ${err instanceof Error ? err.message : String(err)}`;
        if (trial) await rollBack(trial, reason);
        else if (launch.label !== "builtin") await abandonRelease(launch.label, reason);
        else throw err;
        continue;
      }
      child = c;
      watchOutput(c, (b) => {
        base = b;
        emit({ type: "listening", release: launch.label, base: b });
      });
      emit({ type: "started", release: launch.label, pid: c.pid });
      if (trial) {
        const ok = await healthy(c, () => base, trial.to);
        if (stopping) break;
        if (!ok) {
          const reason = c.exitCode !== null ? `exited with ${c.exitCode}` : "no healthy answer in time";
          await stopChild(c);
          await rollBack(trial, reason);
          continue;
        }
        await rm(otaPaths(opts.dataDir).pending, { force: true });
        await logUpdate(opts.dataDir, {
          event: "healthy",
          from: trial.from,
          to: trial.to,
          message: `${trial.to} is healthy`,
        });
        await pruneReleases(opts.dataDir, trial.previous);
        emit({ type: "healthy", version: trial.to });
      }
      const code = await c.exited;
      if (stopping) break;
      if (code !== RESTART_EXIT_CODE) return code;
      emit({ type: "restart", release: launch.label });
    }
    if (child) await stopChild(child);
    return 0;
  }

  const done = loop();
  return {
    done,
    async stop() {
      stopping = true;
      if (child) await stopChild(child);
      return done;
    },
  };
}
