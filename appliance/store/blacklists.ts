import type { Database } from "bun:sqlite";

export type BlacklistKind = "ip" | "wallet";

/**
 * IP and wallet blacklists, newest first. The engine checks them per connection from its own copy,
 * handed to it at start and after each change (web/api/blacklists.ts).
 */
export class BlacklistStore {
  constructor(private readonly db: Database) {}

  list(kind: BlacklistKind): string[] {
    return this.db
      .query<{ value: string }, [string]>(
        "SELECT value FROM blacklist WHERE kind = ? ORDER BY created_at DESC, rowid DESC",
      )
      .all(kind)
      .map((r) => r.value);
  }

  add(kind: BlacklistKind, values: string[]): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const v of values) {
        this.db
          .query("INSERT OR IGNORE INTO blacklist (kind, value, created_at) VALUES (?, ?, ?)")
          .run(kind, v, now);
      }
    })();
  }

  remove(kind: BlacklistKind, values: string[]): void {
    this.db.transaction(() => {
      for (const v of values)
        this.db.query("DELETE FROM blacklist WHERE kind = ? AND value = ?").run(kind, v);
    })();
  }
}
