import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations/index.ts";

export const DB_FILE = "pithead.db";

/** Bytes on disk of the database and its write-ahead log (the metrics and the soak watch it grow). */
export function databaseBytes(dataDir: string): number {
  const file = join(dataDir, DB_FILE);
  let bytes = 0;
  for (const f of [file, `${file}-wal`]) bytes += statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/**
 * Opens the appliance database: WAL so readers never block the writer, FULL sync so that an
 * acknowledged configuration write survives a crash or power cut, foreign keys on.
 */
export function openDatabase(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DB_FILE);
  const db = new Database(file, { create: true, strict: true });
  // Hashes, keys and tokens live here: owner-only, and SQLite gives the -wal/-shm files the same mode.
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  migrate(db);
  return db;
}

/** Runs every numbered migration not yet applied, each in its own transaction. */
export function migrate(db: Database): void {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const row = db.query<{ v: number | null }, []>("SELECT max(version) AS v FROM schema_version").get();
  const current = row?.v ?? 0;
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.query("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(
        m.version,
        new Date().toISOString(),
      );
    })();
  }
}

/**
 * A second connection for logs: same file and WAL, but NORMAL sync, so a request log line does not
 * cost an fsync. WAL keeps the file consistent; a power cut may lose the last log lines only.
 */
export function openLogConnection(dataDir: string): Database {
  const db = new Database(join(dataDir, DB_FILE), { strict: true });
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}
