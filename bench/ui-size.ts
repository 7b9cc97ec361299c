/**
 * Console first-load size: index.html + the entry script + every chunk it imports statically
 * (transitively), gzip level 9 as the server precompresses. Lazy chunks are listed apart.
 * Usage: bun bench/ui-size.ts [--budget 81920]   (run `bun ui/build.ts` first)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = join(import.meta.dir, "../ui/dist");
const budgetArg = process.argv.indexOf("--budget");
const budget = budgetArg > 0 ? Number(process.argv[budgetArg + 1]) : 80 * 1024;

const gz = (buf: Buffer | string) => gzipSync(buf, { level: 9 }).length;
/** Static imports of an ESM chunk: `import ... from "./x.js"` and `import "./x.js"`, not `import("./x.js")`. */
export function staticImports(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(
    /(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*|)["'](\.\/[^"']+\.js)["']/g,
  ))
    out.add(m[1] as string);
  return [...out];
}

/** The first load of a built console: gzip size of index.html and of each statically imported chunk. */
export function firstLoad(dir = dist): { htmlGz: number; chunks: Map<string, number>; total: number } {
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const entry = /src="([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error("no entry script in ui/dist/index.html");
  const chunks = new Map<string, number>();
  const visit = (rel: string) => {
    const name = rel.replace(/^\.?\/?assets\//, "").replace(/^\.\//, "");
    if (chunks.has(name)) return;
    const code = readFileSync(join(dir, "assets", name), "utf8");
    chunks.set(name, gz(code));
    for (const dep of staticImports(code)) visit(dep);
  };
  visit(entry);
  const htmlGz = gz(html);
  return { htmlGz, chunks, total: htmlGz + [...chunks.values()].reduce((x, y) => x + y, 0) };
}

if (import.meta.main) {
  const { htmlGz, chunks: first, total } = firstLoad();
  const lazy = readdirSync(join(dist, "assets")).filter((f) => !first.has(f));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`index.html            ${kb(htmlGz)}`);
  for (const [f, n] of first) console.log(`${f.padEnd(22)}${kb(n)}`);
  console.log(`first load (gzip)     ${kb(total)}  budget ${kb(budget)}`);
  console.log(
    `lazy chunks: ${lazy.length}, ${kb(lazy.reduce((a, f) => a + gz(readFileSync(join(dist, "assets", f))), 0))} gzip in all`,
  );
  if (total > budget) {
    console.error("over budget");
    process.exit(1);
  }
}
