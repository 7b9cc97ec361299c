/**
 * Assembles the application release from a source checkout and packs it as a bundle: app/main.js is
 * appliance/main.ts bundled for the Bun runtime (the installed executable runs it as Bun), beside it
 * the worker entries (appliance/workers.ts), console/ is the built console. Used by `make dist` and
 * `pithead bundle build` run from source.
 */
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BunPlugin } from "bun";
import { WORKER_ENTRIES } from "../../workers.ts";
import { buildBundle, signBundle } from "./bundle.ts";

export interface StageOptions {
  root: string;
  /** the console files to ship (ui/dist, or its precompressed copy) */
  consoleDir: string;
  stage: string;
  outFile: string;
  version: string;
  /** private key file; the bundle stays unsigned without it */
  keyFile?: string;
  /** extra `--define NAME=VALUE` pairs, as given to bun build */
  defines?: string[];
}

function defineMap(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const pair = pairs[i + 1] as string;
    const eq = pair.indexOf("=");
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export async function buildAppStage(opts: StageOptions): Promise<{ bundleFile: string; size: number }> {
  await rm(opts.stage, { recursive: true, force: true });
  await mkdir(join(opts.stage, "app"), { recursive: true });
  const define = { PITHEAD_VERSION: JSON.stringify(opts.version), ...defineMap(opts.defines ?? []) };
  const pkgFile = join(opts.root, "package.json");
  // The release reports the bundle's version however the code reads it (import of package.json or
  // the PITHEAD_VERSION define), so its health check answers with the version it was shipped as.
  const versionPlugin: BunPlugin = {
    name: "release-version",
    setup(b) {
      b.onLoad({ filter: /package\.json$/ }, async (args) => {
        const raw = JSON.parse(await readFile(args.path, "utf8")) as Record<string, unknown>;
        if (args.path === pkgFile) raw.version = opts.version;
        return { contents: JSON.stringify(raw), loader: "json" };
      });
    },
  };
  const src = join(opts.root, "appliance");
  const result = await Bun.build({
    // app/main.js and, beside it, the worker entries at the paths the code looks for them
    entrypoints: [join(src, "main.ts"), ...WORKER_ENTRIES.map((w) => join(src, w))],
    root: src,
    plugins: [versionPlugin],
    target: "bun",
    format: "esm",
    minify: true,
    define,
    naming: "[dir]/[name].[ext]",
    outdir: join(opts.stage, "app"),
  });
  if (!result.success) throw new Error(`bundling appliance/main.ts failed:\n${result.logs.join("\n")}`);
  await cp(opts.consoleDir, join(opts.stage, "console"), { recursive: true });
  const bytes = await buildBundle(opts.stage, { version: opts.version, minRuntime: Bun.version });
  const out = opts.keyFile ? signBundle(bytes, await readFile(opts.keyFile, "utf8")) : bytes;
  await writeFile(opts.outFile, out);
  return { bundleFile: opts.outFile, size: out.length };
}
