/** After a healthy update only the active release, the one it replaced and the newest backups stay. */
import { expect, test } from "bun:test";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { otaPaths } from "../../appliance/ops/ota/layout.ts";
import { pruneReleases } from "../../appliance/ops/ota/prune.ts";
import { switchRelease } from "../../appliance/ops/ota/switch.ts";

test("pruning keeps the active and previous releases and three backups", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "pithead-prune-"));
  const p = otaPaths(dataDir);
  for (const v of ["1.0.0", "1.1.0", "1.2.0"]) await mkdir(p.release(v), { recursive: true });
  await mkdir(p.backups, { recursive: true });
  for (const ms of [1000, 5000, 3000, 2000, 4000])
    await writeFile(join(p.backups, `pithead-1.0.0-${ms}.db`), "x");
  await switchRelease(dataDir, p.release("1.2.0"));

  const removed = await pruneReleases(dataDir, p.release("1.1.0"));

  expect((await readdir(p.releases)).sort()).toEqual(["1.1.0", "1.2.0"]);
  expect((await readdir(p.backups)).sort()).toEqual([
    "pithead-1.0.0-3000.db",
    "pithead-1.0.0-4000.db",
    "pithead-1.0.0-5000.db",
  ]);
  expect(removed).toHaveLength(3);
});
