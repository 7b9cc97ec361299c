/**
 * Test releases for the OTA tests: a tiny but real program with the appliance's start-up contract
 * (`run --data-dir DIR`, prints `listening on http://127.0.0.1:PORT`, answers GET /healthz, exits 75
 * to ask for a restart) that keeps a value in DATA/pithead.db. `mode` makes a release that answers
 * its health check with ok:false ("unhealthy") or exits at once ("crash").
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBundle, signBundle } from "../../appliance/ops/ota/bundle.ts";

export type Mode = "good" | "unhealthy" | "crash";

export function throwawayKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

function appSource(version: string, mode: Mode): string {
  return `
import { Database } from "bun:sqlite";
const args = process.argv.slice(2);
if (args[0] !== "run") { console.error("expected run"); process.exit(2); }
if (${JSON.stringify(mode)} === "crash") { console.error("release ${version} cannot start"); process.exit(1); }
const dataDir = args[args.indexOf("--data-dir") + 1];
const db = new Database(dataDir + "/pithead.db");
db.run("PRAGMA journal_mode=WAL");
db.run("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT)");
db.run("CREATE TABLE IF NOT EXISTS started (version TEXT)");
db.run("INSERT INTO started VALUES (?)", [${JSON.stringify(version)}]);
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    if (url.pathname === "/healthz") return Response.json({ ok: ${JSON.stringify(mode)} === "good", version: ${JSON.stringify(version)} });
    if (url.pathname === "/kv" && req.method === "PUT") {
      db.run("INSERT OR REPLACE INTO kv VALUES (?, ?)", [url.searchParams.get("k"), await req.text()]);
      return new Response("ok");
    }
    if (url.pathname === "/kv") {
      const row = db.query("SELECT v FROM kv WHERE k = ?").get(url.searchParams.get("k"));
      return row ? new Response(row.v) : new Response("none", { status: 404 });
    }
    if (url.pathname === "/started") return Response.json(db.query("SELECT version FROM started").all().map((r) => r.version));
    if (url.pathname === "/restart") { setTimeout(() => process.exit(75), 50); return new Response("bye"); }
    return new Response("not found", { status: 404 });
  },
});
console.log("listening on http://127.0.0.1:" + server.port);
process.on("SIGTERM", () => { server.stop(true); db.close(); process.exit(0); });
`;
}

/** A release directory (app/main.js + console/index.html) for `version`. */
export async function releaseDir(version: string, mode: Mode = "good"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `pithead-rel-${version}-`));
  await mkdir(join(dir, "app"), { recursive: true });
  await mkdir(join(dir, "console/assets"), { recursive: true });
  await writeFile(join(dir, "app/main.js"), appSource(version, mode));
  await writeFile(join(dir, "console/index.html"), `<!doctype html><title>Pithead ${version}</title>`);
  await writeFile(join(dir, "console/assets/app.js"), `console.log(${JSON.stringify(version)});`);
  return dir;
}

export async function signedBundle(
  version: string,
  privateKey: string,
  mode: Mode = "good",
): Promise<Uint8Array> {
  const bytes = await buildBundle(await releaseDir(version, mode), { version, minRuntime: "1.0.0" });
  return signBundle(bytes, privateKey);
}

/**
 * A bundle that carries its own executable `pithead`: an ELF header for `machine` (62 x86-64,
 * 183 aarch64) followed by nothing runnable, so the kernel refuses to start it.
 */
export async function bundleWithBrokenExecutable(
  version: string,
  privateKey: string,
  machine: number,
): Promise<Uint8Array> {
  const dir = await releaseDir(version);
  const head = new Uint8Array(64);
  head.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  new DataView(head.buffer).setUint16(16, 2, true);
  new DataView(head.buffer).setUint16(18, machine, true);
  await writeFile(join(dir, "pithead"), head);
  return signBundle(await buildBundle(dir, { version, minRuntime: "1.0.0" }), privateKey);
}
