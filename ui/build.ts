/**
 * Builds the console into ui/dist: index.html plus content-hashed ESM chunks under assets/.
 * Catalogs in locales/*.json are compiled to lingui messages at build time (virtual `locale:<name>`
 * modules), so the browser ships no message compiler; only English is in the first load.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { build, type Plugin } from "esbuild";

const root = join(import.meta.dir, "..");
const out = join(root, "ui/dist");
const prod = process.env.UI_DEV !== "1";

/**
 * Catalog sections that only a lazily loaded page uses: `locale:<lang>` leaves their keys out and
 * `locale:<lang>/<section>` holds only them, loaded with the page (lib/i18n.ts loadSection). The
 * pool-node page's texts were 4.7 KB of the English catalog in the first load.
 */
const LAZY_SECTIONS = ["poolnode"];
const inSection = (key: string, section: string) => key.startsWith(`${section}.`);

const localePlugin: Plugin = {
  name: "locales",
  setup(b) {
    b.onResolve({ filter: /^locale:/ }, (a) => ({ path: a.path.slice(7), namespace: "locale" }));
    b.onLoad({ filter: /.*/, namespace: "locale" }, async (a) => {
      const [lang, section] = a.path.split("/") as [string, string | undefined];
      if (section !== undefined && !LAZY_SECTIONS.includes(section))
        throw new Error(`locale:${a.path}: no lazy catalog section ${section}`);
      const file = join(root, "locales", `${lang}.json`);
      const raw = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
      const keep = (k: string) =>
        section === undefined ? !LAZY_SECTIONS.some((s) => inSection(k, s)) : inSection(k, section);
      const compiled = Object.fromEntries(
        Object.entries(raw)
          .filter(([k]) => keep(k))
          .map(([k, v]) => [k, compileMessage(v)]),
      );
      return { contents: `export default ${JSON.stringify(compiled)};`, loader: "js", watchFiles: [file] };
    });
  },
};

await rm(out, { recursive: true, force: true });
await mkdir(join(out, "assets"), { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: "ui/src/main.tsx" },
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2020",
  minify: prod,
  sourcemap: false,
  outdir: out,
  entryNames: "assets/[name]-[hash]",
  chunkNames: "assets/[name]-[hash]",
  jsx: "automatic",
  jsxImportSource: "preact",
  alias: { react: "preact/compat", "react-dom": "preact/compat", "react/jsx-runtime": "preact/jsx-runtime" },
  define: { "process.env.NODE_ENV": JSON.stringify(prod ? "production" : "development") },
  loader: { ".css": "text" },
  legalComments: "none",
  metafile: true,
  plugins: [localePlugin],
  logLevel: "warning",
});

const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === "ui/src/main.tsx");
if (!entry) throw new Error("no entry output");
const appPath = entry[0].replace(/^ui\/dist\//, "");
const template = await readFile(join(root, "ui/index.html"), "utf8");
await writeFile(join(out, "index.html"), template.replace("%APP%", appPath));
const files = await readdir(join(out, "assets"));
console.log(`ui/dist: index.html + ${files.length} assets (entry ${appPath})`);
