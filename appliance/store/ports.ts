import type { Database } from "bun:sqlite";
import {
  PORT_SCALAR_FIELDS,
  type Port,
  type PortSetting,
  type PortStatusCode,
  type PortWallet,
} from "../domain/port.ts";

/** A port as the API receives it: no ids or timestamps. */
export type PortInput = Omit<Port, "id" | "wallets" | "created_at" | "updated_at"> & {
  wallets: WalletInput[];
};
export type WalletInput = Pick<PortWallet, "addr" | "device" | "pool_address" | "pool_protocol" | "ratio"> & {
  /** an existing wallet of the port being edited: updated in place, keeping its id */
  id?: number;
};

interface PortRow extends Omit<Port, "setting" | "wallets" | "status"> {
  setting: string;
  status: number;
}

const PORT_COLUMNS = PORT_SCALAR_FIELDS;

export class PortStore {
  constructor(private readonly db: Database) {}

  list(): Port[] {
    const rows = this.db.query<PortRow, []>("SELECT * FROM ports ORDER BY port").all();
    const wallets = this.db
      .query<PortWallet & { position: number }, []>("SELECT * FROM port_wallets ORDER BY server_id, position")
      .all();
    const byPort = new Map<number, PortWallet[]>();
    for (const w of wallets) {
      const list = byPort.get(w.server_id) ?? [];
      list.push(stripPosition(w));
      byPort.set(w.server_id, list);
    }
    return rows.map((r) => toPort(r, byPort.get(r.id) ?? []));
  }

  get(id: number): Port | null {
    const row = this.db.query<PortRow, [number]>("SELECT * FROM ports WHERE id = ?").get(id);
    if (!row) return null;
    return toPort(row, this.wallets(id));
  }

  byNumber(port: number): Port | null {
    const row = this.db.query<{ id: number }, [number]>("SELECT id FROM ports WHERE port = ?").get(port);
    return row ? this.get(row.id) : null;
  }

  wallets(portId: number): PortWallet[] {
    return this.db
      .query<PortWallet & { position: number }, [number]>(
        "SELECT * FROM port_wallets WHERE server_id = ? ORDER BY position",
      )
      .all(portId)
      .map(stripPosition);
  }

  /** Creates ports with their wallets in one transaction: all of them or none. */
  createMany(inputs: PortInput[]): number[] {
    return this.db.transaction(() => inputs.map((p) => this.insert(p)))();
  }

  create(input: PortInput): number {
    return this.createMany([input])[0] as number;
  }

  /** Replaces a port's fields and its wallet list in one transaction. */
  update(id: number, input: PortInput): void {
    this.db.transaction(() => {
      const now = new Date().toISOString();
      const sets = PORT_COLUMNS.map((c) => `${c} = $${c}`).join(", ");
      this.db
        .query(`UPDATE ports SET ${sets}, setting = $setting, updated_at = $now WHERE id = $id`)
        .run({ ...portParams(input), setting: JSON.stringify(input.setting), now, id });
      this.replaceWallets(id, input.wallets);
    })();
  }

  /**
   * Makes the port's wallet list equal to `wallets`: rows that name one of this port's wallet ids are
   * updated in place (an id means the same fee wallet to ratio overrides and the fee audit), the rest
   * are inserted, and wallets no longer listed are deleted.
   */
  replaceWallets(portId: number, wallets: WalletInput[]): void {
    this.db.transaction(() => {
      const now = new Date().toISOString();
      const own = new Set(this.wallets(portId).map((w) => w.id));
      const kept = new Set<number>();
      const update = this.db.query(
        `UPDATE port_wallets SET position = ?, addr = ?, device = ?, pool_address = ?, pool_protocol = ?, ratio = ?,
         updated_at = ? WHERE id = ?`,
      );
      const fresh: { w: WalletInput; position: number }[] = [];
      wallets.forEach((w, position) => {
        if (w.id !== undefined && own.has(w.id) && !kept.has(w.id)) {
          kept.add(w.id);
          update.run(position, w.addr, w.device, w.pool_address, w.pool_protocol, w.ratio, now, w.id);
        } else fresh.push({ w, position });
      });
      const drop = this.db.query("DELETE FROM port_wallets WHERE id = ?");
      for (const id of own) if (!kept.has(id)) drop.run(id);
      this.insertWallets(portId, fresh);
      this.db.query("UPDATE ports SET updated_at = ? WHERE id = ?").run(now, portId);
    })();
  }

  wallet(id: number): PortWallet | null {
    const row = this.db
      .query<PortWallet & { position: number }, [number]>("SELECT * FROM port_wallets WHERE id = ?")
      .get(id);
    return row ? stripPosition(row) : null;
  }

  addWallet(portId: number, w: WalletInput): number {
    const now = new Date().toISOString();
    const res = this.db
      .query(
        `INSERT INTO port_wallets (server_id, position, addr, device, pool_address, pool_protocol, ratio, created_at, updated_at)
         VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM port_wallets WHERE server_id = ?), ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(portId, portId, w.addr, w.device, w.pool_address, w.pool_protocol, w.ratio, now, now);
    return Number(res.lastInsertRowid);
  }

  updateWallet(id: number, w: WalletInput): boolean {
    return (
      this.db
        .query(
          "UPDATE port_wallets SET addr = ?, device = ?, pool_address = ?, pool_protocol = ?, ratio = ?, updated_at = ? WHERE id = ?",
        )
        .run(w.addr, w.device, w.pool_address, w.pool_protocol, w.ratio, new Date().toISOString(), id)
        .changes > 0
    );
  }

  deleteWallet(id: number): boolean {
    return this.db.query("DELETE FROM port_wallets WHERE id = ?").run(id).changes > 0;
  }

  setStatus(ids: number[], status: PortStatusCode): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const id of ids) {
        this.db.query("UPDATE ports SET status = ?, updated_at = ? WHERE id = ?").run(status, now, id);
      }
    })();
  }

  delete(id: number): boolean {
    return this.db.query("DELETE FROM ports WHERE id = ?").run(id).changes > 0;
  }

  private insert(p: PortInput): number {
    const now = new Date().toISOString();
    const cols = PORT_COLUMNS.join(", ");
    const vals = PORT_COLUMNS.map((c) => `$${c}`).join(", ");
    const res = this.db
      .query(
        `INSERT INTO ports (${cols}, setting, created_at, updated_at) VALUES (${vals}, $setting, $now, $now)`,
      )
      .run({ ...portParams(p), setting: JSON.stringify(p.setting), now });
    const id = Number(res.lastInsertRowid);
    this.insertWallets(
      id,
      p.wallets.map((w, position) => ({ w, position })),
    );
    return id;
  }

  private insertWallets(portId: number, rows: { w: WalletInput; position: number }[]): void {
    const now = new Date().toISOString();
    const q = this.db.query(
      `INSERT INTO port_wallets (server_id, position, addr, device, pool_address, pool_protocol, ratio, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { w, position } of rows)
      q.run(portId, position, w.addr, w.device, w.pool_address, w.pool_protocol, w.ratio, now, now);
  }
}

function portParams(p: PortInput): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const c of PORT_COLUMNS) out[c] = p[c];
  return out;
}

function toPort(row: PortRow, wallets: PortWallet[]): Port {
  return {
    ...row,
    status: row.status === 1 ? 1 : 0,
    setting: JSON.parse(row.setting) as PortSetting,
    wallets,
  };
}

function stripPosition(w: PortWallet & { position: number }): PortWallet {
  const { position: _position, ...rest } = w;
  return rest;
}
