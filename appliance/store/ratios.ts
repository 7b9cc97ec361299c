import type { Database } from "bun:sqlite";
import type { EngineControl } from "../domain/engine.ts";
import type { RatioOverride } from "../domain/port.ts";

interface Row {
  device: number;
  wallet: string;
  worker: string;
  ratio: number;
}

const toOverride = (r: Row): RatioOverride => ({
  wallet: r.wallet,
  worker: r.device ? r.worker : null,
  ratio: r.ratio,
});

/**
 * Per-wallet (worker null) and per-device (wallet and worker name) fee ratio overrides of each port.
 * A device row has `device` 1, so a device logging in without a worker name ("") stays apart from
 * its wallet's override.
 */
export class RatioStore {
  constructor(private readonly db: Database) {}

  list(portId: number): RatioOverride[] {
    return this.db
      .query<Row, [number]>(
        "SELECT device, wallet, worker, ratio FROM ratio_overrides WHERE port_id = ? ORDER BY device, wallet, worker",
      )
      .all(portId)
      .map(toOverride);
  }

  /** Every port's overrides in one query (start-up with many ports). */
  all(): Map<number, RatioOverride[]> {
    const out = new Map<number, RatioOverride[]>();
    const rows = this.db
      .query<Row & { port_id: number }, []>(
        "SELECT port_id, device, wallet, worker, ratio FROM ratio_overrides ORDER BY port_id, device, wallet, worker",
      )
      .all();
    for (const row of rows) {
      const list = out.get(row.port_id) ?? [];
      list.push(toOverride(row));
      out.set(row.port_id, list);
    }
    return out;
  }

  get(portId: number, wallet: string, worker: string | null): number | null {
    const row = this.db
      .query<{ ratio: number }, [number, number, string, string]>(
        "SELECT ratio FROM ratio_overrides WHERE port_id = ? AND device = ? AND wallet = ? AND worker = ?",
      )
      .get(portId, worker === null ? 0 : 1, wallet, worker ?? "");
    return row ? row.ratio : null;
  }

  set(portId: number, o: RatioOverride): void {
    this.db
      .query(
        `INSERT INTO ratio_overrides (port_id, device, wallet, worker, ratio, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(port_id, device, wallet, worker) DO UPDATE SET ratio = excluded.ratio, updated_at = excluded.updated_at`,
      )
      .run(portId, o.worker === null ? 0 : 1, o.wallet, o.worker ?? "", o.ratio, new Date().toISOString());
  }

  clear(portId: number, wallet: string, worker: string | null): boolean {
    return (
      this.db
        .query("DELETE FROM ratio_overrides WHERE port_id = ? AND device = ? AND wallet = ? AND worker = ?")
        .run(portId, worker === null ? 0 : 1, wallet, worker ?? "").changes > 0
    );
  }
}

/** Hands a port's stored overrides to the engine (at start and after a re-apply). */
export function pushOverrides(
  engine: Pick<EngineControl, "setWalletRatio" | "setDeviceRatio">,
  portId: number,
  overrides: RatioOverride[],
): void {
  for (const o of overrides) {
    if (o.worker === null) engine.setWalletRatio(portId, o.wallet, o.ratio);
    else engine.setDeviceRatio(portId, o.wallet, o.worker, o.ratio);
  }
}
