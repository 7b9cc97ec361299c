/**
 * `pithead bundle …` (build, sign, verify, apply, list, supervise). Each returns the process exit code; messages go to
 * stdout/stderr for the operator.
 *
 *   bundle build  --out FILE [--key FILE] [--version V] [--from DIR [--min-runtime V]]
 *                 (without --from: built from this source checkout, version from package.json)
 *   bundle sign   --key FILE BUNDLE [--out FILE]
 *   bundle verify [--pubkey FILE] BUNDLE
 *   bundle apply  [--data-dir DIR] [--force] [--pubkey FILE] BUNDLE
 *   bundle list   [--data-dir DIR]
 *   bundle supervise [--data-dir DIR] [--health-timeout SECONDS] [-- RUN-ARGS…]
 *                 the service's main process (supervisor.ts); `bundle` because it finishes updates
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { applyBundle, RESTART_EXIT_CODE, UpdateRefused } from "./apply.ts";
import { buildBundle, signBundle, verifyBundle } from "./bundle.ts";
import { BundleError } from "./container.ts";
import { RELEASE_PUBLIC_KEY } from "./release-key.ts";
import { listReleases } from "./releases.ts";
import { buildAppStage } from "./stage.ts";
import { startSupervisor } from "./supervisor.ts";
import { BUILT_IN_VERSION, isVersion } from "./version.ts";

const USAGE = `usage:
  pithead bundle build  --out FILE [--key FILE] [--version V] [--from DIR [--min-runtime V]]
  pithead bundle sign   --key FILE BUNDLE [--out FILE]
  pithead bundle verify [--pubkey FILE] BUNDLE
  pithead bundle apply  [--data-dir DIR] [--force] [--pubkey FILE] BUNDLE
  pithead bundle list   [--data-dir DIR]
  pithead bundle supervise [--data-dir DIR] [--health-timeout SECONDS] [-- RUN-ARGS...]`;

class UsageError extends Error {}

interface Parsed {
  flags: Map<string, string>;
  switches: Set<string>;
  positional: string[];
}

const SWITCHES = new Set(["--force"]);

function parse(args: string[]): Parsed {
  const out: Parsed = { flags: new Map(), switches: new Set(), positional: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (SWITCHES.has(a)) out.switches.add(a);
    else if (a.startsWith("--")) {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      out.flags.set(a, v);
    } else out.positional.push(a);
  }
  return out;
}

function one(p: Parsed, what: string): string {
  if (p.positional.length !== 1) throw new UsageError(`expected one ${what}`);
  return p.positional[0] as string;
}

function need(p: Parsed, flag: string): string {
  const v = p.flags.get(flag);
  if (v === undefined) throw new UsageError(`${flag} is required`);
  return v;
}

async function readBytes(file: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(file));
}

async function publicKey(p: Parsed): Promise<string> {
  const f = p.flags.get("--pubkey");
  return f ? readFile(f, "utf8") : RELEASE_PUBLIC_KEY;
}

function dataDir(p: Parsed): string {
  return resolve(p.flags.get("--data-dir") ?? process.env.PITHEAD_DATA_DIR ?? "./data");
}

/** True when running as a `bun build --compile` executable (its modules live in Bun's virtual fs). */
function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/");
}

async function build(p: Parsed): Promise<number> {
  const out = resolve(need(p, "--out"));
  const keyFile = p.flags.get("--key");
  const from = p.flags.get("--from");
  if (from) {
    const bytes = await buildBundle(resolve(from), {
      version: need(p, "--version"),
      minRuntime: p.flags.get("--min-runtime") ?? Bun.version,
    });
    await writeFile(out, keyFile ? signBundle(bytes, await readFile(keyFile, "utf8")) : bytes);
  } else {
    if (isCompiled()) throw new UsageError("without --from, bundle build needs a source checkout");
    const v = p.flags.get("--version");
    if (v !== undefined && !isVersion(v)) throw new UsageError(`--version ${v} is not a version`);
    const root = resolve(import.meta.dir, "../../..");
    const stage = join(root, ".tmp", `bundle-${process.pid}`);
    await buildAppStage({
      root,
      consoleDir: join(root, "ui/dist"),
      stage,
      outFile: out,
      version: p.flags.get("--version") ?? BUILT_IN_VERSION,
      keyFile,
    });
    await rm(stage, { recursive: true, force: true });
  }
  console.log(`wrote ${out}${keyFile ? " (signed)" : " (unsigned)"}`);
  return 0;
}

async function runBundle(sub: string | undefined, p: Parsed): Promise<number> {
  switch (sub) {
    case "build":
      return build(p);
    case "sign": {
      const file = one(p, "bundle file");
      const signed = signBundle(await readBytes(file), await readFile(need(p, "--key"), "utf8"));
      await writeFile(p.flags.get("--out") ?? file, signed);
      console.log(`signed ${p.flags.get("--out") ?? file}`);
      return 0;
    }
    case "verify": {
      const { manifest, files } = verifyBundle(await readBytes(one(p, "bundle file")), await publicKey(p));
      console.log(
        `ok: version ${manifest.version}, ${files.size} files, min runtime ${manifest.min_runtime}`,
      );
      return 0;
    }
    case "apply": {
      const r = await applyBundle({
        dataDir: dataDir(p),
        bundle: await readBytes(one(p, "bundle file")),
        publicKey: await publicKey(p),
        force: p.switches.has("--force"),
      });
      console.log(`switched ${r.from} -> ${r.to}; restart the service to run and health-check it`);
      return 0;
    }
    case "list":
      for (const r of await listReleases(dataDir(p))) {
        console.log(`${r.active ? "*" : " "} ${r.version}\t${r.kind}${r.runtime ? "" : " (app only)"}`);
      }
      return 0;
    default:
      throw new UsageError(sub ? `unknown bundle command "${sub}"` : "missing bundle command");
  }
}

export async function runBundleCli(args: string[]): Promise<number> {
  try {
    if (args[0] === "supervise") return await runSupervisorCli(args.slice(1));
    return await runBundle(args[0], parse(args.slice(1)));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n${USAGE}`);
      return 2;
    }
    if (e instanceof BundleError || e instanceof UpdateRefused) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
}

/** `pithead bundle supervise`: the systemd main process; see supervisor.ts. */
export async function runSupervisorCli(args: string[]): Promise<number> {
  const split = args.indexOf("--");
  const own = parse(split >= 0 ? args.slice(0, split) : args);
  const runArgs = split >= 0 ? args.slice(split + 1) : [];
  const seconds = Number(own.flags.get("--health-timeout") ?? "60");
  if (!(seconds > 0)) throw new UsageError("--health-timeout needs a number of seconds above 0");
  const builtin = isCompiled()
    ? [process.execPath]
    : [process.execPath, resolve(import.meta.dir, "../../main.ts")];
  const sup = startSupervisor({
    dataDir: dataDir(own),
    builtin,
    runtime: process.execPath,
    runArgs,
    healthTimeoutMs: seconds * 1000,
    onEvent: (e) => console.error(`supervisor: ${JSON.stringify(e)}`),
  });
  for (const sig of ["SIGTERM", "SIGINT"] as const) process.once(sig, () => void sup.stop());
  return sup.done;
}

export { RESTART_EXIT_CODE };
