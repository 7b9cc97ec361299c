import type { Database } from "bun:sqlite";

export type BlacklistKind = "ip" | "wallet";

/** IP and wallet blacklists, newest first; kept in memory too because the engine checks them per connection. */
export class BlacklistStore {
  private readonly cache = new Map<BlacklistKind, Set<string>>();

  constructor(private readonly db: Database) {
    for (const kind of ["ip", "wallet"] as const) {
      this.cache.set(kind, new Set(this.list(kind)));
    }
  }

  list(kind: BlacklistKind): string[] {
    return this.db
      .query<{ value: string }, [string]>(
        "SELECT value FROM blacklist WHERE kind = ? ORDER BY created_at DESC, rowid DESC",
      )
      .all(kind)
      .map((r) => r.value);
  }

  has(kind: BlacklistKind, value: string): boolean {
    return this.cache.get(kind)?.has(value) ?? false;
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
    for (const v of values) this.cache.get(kind)?.add(v);
  }

  remove(kind: BlacklistKind, values: string[]): void {
    this.db.transaction(() => {
      for (const v of values)
        this.db.query("DELETE FROM blacklist WHERE kind = ? AND value = ?").run(kind, v);
    })();
    for (const v of values) this.cache.get(kind)?.delete(v);
  }
}
