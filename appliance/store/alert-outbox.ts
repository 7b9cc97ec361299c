import type { Database } from "bun:sqlite";

/** One rendered message waiting for one push channel. */
export interface OutboxItem<M> {
  id: number;
  channel: string;
  message: M;
  attempts: number;
  nextAt: number;
  lastError: string;
  createdAt: number;
}

interface Row {
  id: number;
  channel: string;
  message: string;
  attempts: number;
  next_at: number;
  last_error: string;
  created_at: number;
}

/**
 * Messages not yet delivered, in SQLite so that a restart does not lose them. Bounded: past `limit`
 * rows the oldest are dropped (a receiver down for days must not fill the disk); `push` says how many.
 */
export class AlertOutboxStore<M> {
  constructor(
    private readonly db: Database,
    private readonly limit: number,
  ) {}

  push(channel: string, message: M, at: number): number {
    this.db
      .query("INSERT INTO alert_outbox (channel, message, next_at, created_at) VALUES (?, ?, ?, ?)")
      .run(channel, JSON.stringify(message), at, at);
    return this.db
      .query(
        "DELETE FROM alert_outbox WHERE id <= (SELECT id FROM alert_outbox ORDER BY id DESC LIMIT 1 OFFSET ?)",
      )
      .run(this.limit).changes;
  }

  due(now: number, max: number): OutboxItem<M>[] {
    return this.db
      .query<Row, [number, number]>("SELECT * FROM alert_outbox WHERE next_at <= ? ORDER BY id LIMIT ?")
      .all(now, max)
      .map((r) => ({
        id: r.id,
        channel: r.channel,
        message: JSON.parse(r.message) as M,
        attempts: r.attempts,
        nextAt: r.next_at,
        lastError: r.last_error,
        createdAt: r.created_at,
      }));
  }

  /** The earliest time a message is due, or null when the outbox is empty. */
  nextDue(): number | null {
    return (
      this.db.query<{ t: number | null }, []>("SELECT MIN(next_at) AS t FROM alert_outbox").get()?.t ?? null
    );
  }

  remove(id: number): void {
    this.db.query("DELETE FROM alert_outbox WHERE id = ?").run(id);
  }

  failed(id: number, nextAt: number, error: string): void {
    this.db
      .query("UPDATE alert_outbox SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE id = ?")
      .run(nextAt, error.slice(0, 500), id);
  }

  pending(): { count: number; lastError: string } {
    const r = this.db
      .query<{ n: number; e: string | null }, []>(
        "SELECT COUNT(*) AS n, (SELECT last_error FROM alert_outbox WHERE last_error <> '' ORDER BY id DESC LIMIT 1) AS e FROM alert_outbox",
      )
      .get();
    return { count: r?.n ?? 0, lastError: r?.e ?? "" };
  }
}
