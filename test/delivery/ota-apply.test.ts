/**
 * Applying a bundle up to the restart: a refused bundle changes nothing on disk; an accepted one is
 * unpacked beside the running release, the database is backed up, and `current` switches.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, readlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyBundle, UpdateRefused } from "../../appliance/ops/ota/apply.ts";
import { otaPaths } from "../../appliance/ops/ota/layout.ts";
import { listReleases } from "../../appliance/ops/ota/releases.ts";
import { readUpdateLog } from "../../appliance/ops/ota/update-log.ts";
import { bundleWithBrokenExecutable, signedBundle, throwawayKeys } from "./ota-fixtures.ts";

const keys = throwawayKeys();
// The installed executable's version, as the supervisor tells its child; restored for other files.
const savedBuiltin = process.env.PITHEAD_BUILTIN_VERSION;
beforeAll(() => {
  process.env.PITHEAD_BUILTIN_VERSION = "1.0.0";
});
afterAll(() => {
  if (savedBuiltin === undefined) delete process.env.PITHEAD_BUILTIN_VERSION;
  else process.env.PITHEAD_BUILTIN_VERSION = savedBuiltin;
});
let dataDir: string;

/** Every path and file content under the data dir except the update log, to prove a refusal wrote nothing. */
async function tree(dir: string): Promise<string[]> {
  const log = otaPaths(dir).log;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const p = join(e.parentPath, e.name);
    if (p === log || p === otaPaths(dir).ota) continue;
    out.push(e.isFile() ? `${p} ${Bun.hash(await Bun.file(p).arrayBuffer())}` : p);
  }
  return out.sort();
}

async function refused(p: Promise<unknown>): Promise<UpdateRefused> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UpdateRefused) return e;
    throw e;
  }
  throw new Error("update was accepted");
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "pithead-apply-"));
  const db = new Database(otaPaths(dataDir).db);
  db.run("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)");
  db.run("INSERT INTO kv VALUES ('wallet', 'keep-me')");
  db.close();
});

describe("applyBundle", () => {
  test("a good bundle is unpacked, the database backed up and current switched", async () => {
    const r = await applyBundle({
      dataDir,
      bundle: await signedBundle("1.1.0", keys.privateKey),
      publicKey: keys.publicKey,
    });
    expect(r).toEqual({ from: "1.0.0", to: "1.1.0", restart: true });
    const p = otaPaths(dataDir);
    expect(await readlink(p.current)).toBe(p.release("1.1.0"));
    expect(await Bun.file(join(p.release("1.1.0"), "app/main.js")).exists()).toBe(true);
    const pending = await Bun.file(p.pending).json();
    const backup = new Database(pending.db_backup, { readonly: true });
    expect(backup.query("SELECT v FROM kv").get()).toEqual({ v: "keep-me" });
    backup.close();
    const releases = await listReleases(dataDir);
    expect(releases.map((x) => [x.version, x.kind, x.active])).toEqual([
      ["1.1.0", "ota", true],
      ["1.0.0", "builtin", false],
    ]);
  });

  test("tampered, wrong-key and truncated bundles change nothing and are logged", async () => {
    const good = await signedBundle("1.1.0", keys.privateKey);
    const before = await tree(dataDir);
    const tampered = good.slice();
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    const other = await signedBundle("1.1.0", throwawayKeys().privateKey);
    const cases: [Uint8Array, UpdateRefused["code"]][] = [
      [tampered, "hash_mismatch"],
      [other, "bad_signature"],
      [good.subarray(0, good.length - 100), "truncated"],
    ];
    for (const [bundle, code] of cases) {
      const e = await refused(applyBundle({ dataDir, bundle, publicKey: keys.publicKey }));
      expect(e.code).toBe(code);
      expect(e.message).toStartWith("update refused: ");
    }
    expect(await tree(dataDir)).toEqual(before);
    const log = await readUpdateLog(dataDir);
    expect(log.map((e) => e.event)).toEqual(["refused", "refused", "refused"]);
  });

  test("a downgrade or the same version is refused unless forced", async () => {
    await applyBundle({
      dataDir,
      bundle: await signedBundle("1.1.0", keys.privateKey),
      publicKey: keys.publicKey,
    });
    await Bun.file(otaPaths(dataDir).pending).delete(); // as if the supervisor had accepted 1.1.0
    const older = await signedBundle("1.0.5", keys.privateKey);
    const down = await refused(applyBundle({ dataDir, bundle: older, publicKey: keys.publicKey }));
    expect(down.code).toBe("downgrade");
    expect(down.message).toContain("1.0.5 is older than the running 1.1.0");
    const same = await refused(
      applyBundle({
        dataDir,
        bundle: await signedBundle("1.1.0", keys.privateKey),
        publicKey: keys.publicKey,
      }),
    );
    expect(same.code).toBe("same_version");
    expect(await readlink(otaPaths(dataDir).current)).toBe(otaPaths(dataDir).release("1.1.0"));

    const forced = await applyBundle({ dataDir, bundle: older, publicKey: keys.publicKey, force: true });
    expect(forced.to).toBe("1.0.5");
    expect(await readlink(otaPaths(dataDir).current)).toBe(otaPaths(dataDir).release("1.0.5"));
  });

  test("a second update waits until the first one is health-checked", async () => {
    await applyBundle({
      dataDir,
      bundle: await signedBundle("1.1.0", keys.privateKey),
      publicKey: keys.publicKey,
    });
    const e = await refused(
      applyBundle({
        dataDir,
        bundle: await signedBundle("1.2.0", keys.privateKey),
        publicKey: keys.publicKey,
      }),
    );
    expect(e.code).toBe("busy");
  });

  test("a bundle carrying an executable for another architecture is refused", async () => {
    const other = process.arch === "arm64" ? 62 : 183;
    const bundle = await bundleWithBrokenExecutable("1.1.0", keys.privateKey, other);
    const e = await refused(applyBundle({ dataDir, bundle, publicKey: keys.publicKey }));
    expect(e.code).toBe("wrong_arch");
    expect(e.message).toContain(`this appliance is ${process.arch}`);
  });

  test("a bundle needing a newer runtime is refused", async () => {
    const bundle = await signedBundle("1.1.0", keys.privateKey);
    const e = await refused(
      applyBundle({ dataDir, bundle, publicKey: keys.publicKey, runtimeVersion: "0.9.0" }),
    );
    expect(e.code).toBe("runtime_too_old");
  });
});
