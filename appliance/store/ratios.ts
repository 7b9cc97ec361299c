import type { Database } from "bun:sqlite";
import type { EngineControl } from "../domain/engine.ts";
import type { RatioOverride } from "../domain/port.ts";

/** Per-wallet (worker "") and per-device (wallet "") fee ratio overrides of each port. */
export class RatioStore {
  constructor(private readonly db: Database) {}

  list(portId: number): RatioOverride[] {
    return this.db
      .query<RatioOverride, [number]>(
        "SELECT wallet, worker, ratio FROM ratio_overrides WHERE port_id = ? ORDER BY wallet, worker",
      )
      .all(portId);
  }

  /** Every port's overrides in one query (start-up with many ports). */
  all(): Map<number, RatioOverride[]> {
    const out = new Map<number, RatioOverride[]>();
    const rows = this.db
      .query<RatioOverride & { port_id: number }, []>(
        "SELECT port_id, wallet, worker, ratio FROM ratio_overrides ORDER BY port_id, wallet, worker",
      )
      .all();
    for (const { port_id, ...o } of rows) {
      const list = out.get(port_id) ?? [];
      list.push(o);
      out.set(port_id, list);
    }
    return out;
  }

  get(portId: number, wallet: string, worker: string): number | null {
    const row = this.db
      .query<{ ratio: number }, [number, string, string]>(
        "SELECT ratio FROM ratio_overrides WHERE port_id = ? AND wallet = ? AND worker = ?",
      )
      .get(portId, wallet, worker);
    return row ? row.ratio : null;
  }

  set(portId: number, o: RatioOverride): void {
    this.db
      .query(
        `INSERT INTO ratio_overrides (port_id, wallet, worker, ratio, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(port_id, wallet, worker) DO UPDATE SET ratio = excluded.ratio, updated_at = excluded.updated_at`,
      )
      .run(portId, o.wallet, o.worker, o.ratio, new Date().toISOString());
  }

  clear(portId: number, wallet: string, worker: string): boolean {
    return (
      this.db
        .query("DELETE FROM ratio_overrides WHERE port_id = ? AND wallet = ? AND worker = ?")
        .run(portId, wallet, worker).changes > 0
    );
  }
}

/** Hands a port's stored overrides to the engine (at start and after a re-apply). */
export function pushOverrides(engine: EngineControl, portId: number, overrides: RatioOverride[]): void {
  for (const o of overrides) {
    if (o.worker) engine.setDeviceRatio(portId, o.worker, o.ratio);
    else engine.setWalletRatio(portId, o.wallet, o.ratio);
  }
}
