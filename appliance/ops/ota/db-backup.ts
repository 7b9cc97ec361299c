/**
 * Database copy before an update and its restore on rollback. `VACUUM INTO` takes a consistent
 * snapshot while the running server keeps writing (WAL); the restore runs only while no server runs.
 */
import { Database } from "bun:sqlite";
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { otaPaths } from "./layout.ts";

/** Returns the backup path, or null when there is no database yet. */
export async function backupDatabase(dataDir: string, label: string): Promise<string | null> {
  const p = otaPaths(dataDir);
  if (!(await Bun.file(p.db).exists())) return null;
  await mkdir(p.backups, { recursive: true });
  const file = join(p.backups, `pithead-${label}-${Date.now()}.db`);
  const db = new Database(p.db, { readonly: true });
  try {
    db.run("VACUUM INTO ?", [file]);
  } finally {
    db.close();
  }
  return file;
}

/** Puts the backup back (or removes the database when there was none before the update). */
export async function restoreDatabase(dataDir: string, backup: string | null): Promise<void> {
  const p = otaPaths(dataDir);
  // The WAL and shared-memory files belong to the database being replaced; stale ones would be replayed.
  await rm(`${p.db}-wal`, { force: true });
  await rm(`${p.db}-shm`, { force: true });
  if (backup === null) {
    await rm(p.db, { force: true });
    return;
  }
  const tmp = `${p.db}.restore`;
  await copyFile(backup, tmp);
  await rename(tmp, p.db);
}
