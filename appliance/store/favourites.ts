import type { Database } from "bun:sqlite";

/** Miner wallets the operator starred on a port. */
export class FavouriteStore {
  constructor(private readonly db: Database) {}

  list(portId: number): string[] {
    return this.db
      .query<{ wallet: string }, [number]>(
        "SELECT wallet FROM favourites WHERE port_id = ? ORDER BY created_at",
      )
      .all(portId)
      .map((r) => r.wallet);
  }

  set(portId: number, wallet: string, on: boolean): void {
    if (on) {
      this.db
        .query("INSERT OR IGNORE INTO favourites (port_id, wallet, created_at) VALUES (?, ?, ?)")
        .run(portId, wallet, new Date().toISOString());
    } else {
      this.db.query("DELETE FROM favourites WHERE port_id = ? AND wallet = ?").run(portId, wallet);
    }
  }
}
