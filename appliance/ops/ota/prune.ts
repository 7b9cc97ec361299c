/**
 * Keeps the data directory from growing with every update: after an update passed its health check,
 * only the active release, the one it replaced, and the newest few database backups stay.
 */
import { readdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { otaPaths } from "./layout.ts";
import { activeReleaseDir } from "./switch.ts";

const KEEP_BACKUPS = 3;

export async function pruneReleases(dataDir: string, previous: string | null): Promise<string[]> {
  const p = otaPaths(dataDir);
  const keep = new Set(
    [await activeReleaseDir(dataDir), previous].filter((d) => d !== null).map((d) => basename(d)),
  );
  const removed: string[] = [];
  for (const name of await readdir(p.releases).catch(() => [] as string[])) {
    if (keep.has(name)) continue;
    await rm(join(p.releases, name), { recursive: true, force: true });
    removed.push(join(p.releases, name));
  }
  // Backup names end in the creation time in ms: pithead-<version>-<ms>.db.
  const backups = (await readdir(p.backups).catch(() => [] as string[]))
    .filter((n) => n.endsWith(".db"))
    .sort((a, b) => stamp(b) - stamp(a));
  for (const name of backups.slice(KEEP_BACKUPS)) {
    await rm(join(p.backups, name), { force: true });
    removed.push(join(p.backups, name));
  }
  return removed;
}

function stamp(name: string): number {
  return Number(/-(\d+)\.db$/.exec(name)?.[1] ?? 0);
}
