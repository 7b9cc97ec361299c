/**
 * `make dist`: one self-contained executable per target (dist/pithead-linux-x64, -arm64) with the
 * console embedded, plus the unsigned OTA bundle of the same version (dist/pithead-<version>.bundle).
 *
 * The console goes in with `--asset`, which keeps each file's path under the staged folder name, so
 * every console file is `Bun.embeddedFiles` entry `console/<path under ui/dist>` (for example
 * `console/index.html`, `console/assets/app-1a2b3c.js`). appliance/web/console-assets.ts serves them
 * from memory and compresses them itself, so no precompressed copies are shipped.
 *
 * Options: --targets x64,arm64 (default both)  --out DIR (default dist)  --console DIR (default ui/dist)
 *          --no-bundle
 * Env: PITHEAD_RELEASE_PUBKEY (SPKI PEM) replaces the built-in release public key at build time;
 *      PITHEAD_RELEASE_KEY (a private key file) signs the bundle.
 */
import { cp, mkdir, rm, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { buildAppStage } from "../appliance/ops/ota/stage.ts";
import { WORKER_ENTRIES } from "../appliance/workers.ts";
import pkg from "../package.json" with { type: "json" };

const root = resolve(import.meta.dir, "..");
const bun = process.execPath;
/**
 * x64 uses Bun's baseline build (Nehalem): appliances run on whatever box the farm has, and the
 * default x64 build needs AVX2, which older Celeron/Atom boxes (and qemu's default CPU) lack.
 */
const TARGETS = { x64: "bun-linux-x64-baseline", arm64: "bun-linux-arm64" } as const;
type Arch = keyof typeof TARGETS;

interface Options {
  archs: Arch[];
  out: string;
  console: string;
  bundle: boolean;
}

function parseOptions(argv: string[]): Options {
  let archs: Arch[] = ["x64", "arm64"];
  let out = join(root, "dist");
  let console = join(root, "ui/dist");
  let bundle = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--targets") archs = (argv[++i] ?? "").split(",").map(toArch);
    else if (a === "--out") out = resolve(argv[++i] ?? "");
    else if (a === "--console") console = resolve(argv[++i] ?? "");
    else if (a === "--no-bundle") bundle = false;
    else throw new Error(`unknown option ${a}`);
  }
  return { archs, out, console, bundle };
}

function toArch(s: string): Arch {
  if (s !== "x64" && s !== "arm64") throw new Error(`unknown target ${s} (x64 or arm64)`);
  return s;
}

/** Copies the built console to <stage>/console, whose folder name becomes the embedded names' prefix. */
async function stageConsole(src: string, stage: string): Promise<string> {
  const index = Bun.file(join(src, "index.html"));
  if (!(await index.exists())) throw new Error(`${src}/index.html is missing: run \`make ui\` first`);
  const dst = join(stage, "console");
  await rm(dst, { recursive: true, force: true });
  await cp(src, dst, { recursive: true });
  return dst;
}

function defines(): string[] {
  const out = ["--define", `PITHEAD_VERSION=${JSON.stringify(pkg.version)}`];
  const key = process.env.PITHEAD_RELEASE_PUBKEY;
  if (key) out.push("--define", `PITHEAD_RELEASE_PUBKEY=${JSON.stringify(key)}`);
  return out;
}

async function compile(arch: Arch, stage: string, outFile: string): Promise<void> {
  const args = [
    bun,
    "build",
    "--compile",
    `--target=${TARGETS[arch]}`,
    join(root, "appliance/main.ts"),
    ...WORKER_ENTRIES.map((w) => join(root, "appliance", w)),
    // Relative, so the embedded names start with "console/" (the folder's own name).
    "--asset=console",
    "--minify",
    // An appliance must not change behaviour because of a stray .env or bunfig.toml in its cwd.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    ...defines(),
    "--outfile",
    outFile,
  ];
  const proc = Bun.spawn(args, { cwd: stage, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`bun build --compile for ${arch} failed (${code}):\n${out}${err}`);
}

function mib(n: number): string {
  return `${(n / 1048576).toFixed(1)} MiB`;
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  // Per run, so a test building into a temp dir and `make dist` never share a staging folder.
  const stage = join(root, ".tmp", `dist-${process.pid}`);
  await mkdir(stage, { recursive: true });
  await mkdir(opts.out, { recursive: true });
  const consoleDir = await stageConsole(opts.console, stage);
  for (const arch of opts.archs) {
    const file = join(opts.out, `pithead-linux-${arch}`);
    await compile(arch, stage, file);
    console.log(`${relative(root, file)}  ${mib((await stat(file)).size)}  (version ${pkg.version})`);
  }
  if (opts.bundle) {
    const { bundleFile, size } = await buildAppStage({
      root,
      consoleDir,
      stage: join(stage, "bundle"),
      outFile: join(opts.out, `pithead-${pkg.version}.bundle`),
      version: pkg.version,
      keyFile: process.env.PITHEAD_RELEASE_KEY,
      defines: defines(),
    });
    const signed = process.env.PITHEAD_RELEASE_KEY ? "signed" : "unsigned";
    console.log(`${relative(root, bundleFile)}  ${(size / 1024).toFixed(0)} KiB  (${signed})`);
  }
  await rm(stage, { recursive: true, force: true });
}

await main();
