import type { Database } from "bun:sqlite";

export type LogKind = "operation" | "request" | "error" | "running";

export interface LogEntry {
  id: number;
  kind: LogKind;
  at: string;
  address: string;
  message: string;
}

/** Bounded logs: each kind keeps its newest KEEP entries so the file cannot grow without end. */
const KEEP = 5000;

export class LogStore {
  private writes = 0;

  constructor(private readonly db: Database) {}

  add(kind: LogKind, message: string, address = ""): void {
    this.db
      .query("INSERT INTO logs (kind, at, address, message) VALUES (?, ?, ?, ?)")
      .run(kind, new Date().toISOString(), address, message);
    if (++this.writes % 500 === 0) this.trim();
  }

  close(): void {
    this.db.close();
  }

  list(kind: LogKind, limit = 200): LogEntry[] {
    return this.db
      .query<LogEntry, [string, number]>("SELECT * FROM logs WHERE kind = ? ORDER BY id DESC LIMIT ?")
      .all(kind, limit);
  }

  private trim(): void {
    for (const kind of ["operation", "request", "error", "running"]) {
      this.db
        .query(
          "DELETE FROM logs WHERE kind = ?1 AND id < (SELECT id FROM logs WHERE kind = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
        )
        .run(kind, KEEP);
    }
  }
}
