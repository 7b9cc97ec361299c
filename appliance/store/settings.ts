import type { Database } from "bun:sqlite";

/**
 * Singleton settings (route, web port, TLS flag, KENC key, alerts, RMS, end-point presets, ...) as JSON
 * values under a key. Each write is its own FULL-synced transaction.
 */
export class SettingsStore {
  constructor(private readonly db: Database) {}

  get<T>(key: string, fallback: T): T {
    const row = this.db
      .query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?")
      .get(key);
    return row ? (JSON.parse(row.value) as T) : fallback;
  }

  /** An object setting: a field it was stored without (an older release's) reads as its default. */
  getObject<T extends object>(key: string, defaults: T): T {
    return { ...defaults, ...this.get<Partial<T>>(key, {}) };
  }

  set<T>(key: string, value: T): void {
    this.db
      .query(
        "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
      )
      .run(key, JSON.stringify(value), new Date().toISOString());
  }

  delete(key: string): void {
    this.db.query("DELETE FROM settings WHERE key = ?").run(key);
  }
}
