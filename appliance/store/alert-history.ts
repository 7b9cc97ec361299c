import type { Database } from "bun:sqlite";

export type AlertState = "firing" | "resolved";

/** Values filled into an alert's catalogue message. */
export type AlertVars = Record<string, string | number>;

export interface AlertRow {
  id: number;
  kind: string;
  /** what the episode is about: a device key, "port:3", "disk", "certificate" */
  subject: string;
  portId: number | null;
  state: AlertState;
  /** the catalogue key of the firing message and its values */
  key: string;
  vars: AlertVars;
  firedAt: number;
  resolvedAt: number | null;
}

interface Row {
  id: number;
  kind: string;
  subject: string;
  port_id: number | null;
  state: AlertState;
  key: string;
  vars: string;
  fired_at: number;
  resolved_at: number | null;
}

/** The history keeps this many episodes; older resolved ones go first. */
const KEEP = 5000;

const toAlert = (r: Row): AlertRow => ({
  id: r.id,
  kind: r.kind,
  subject: r.subject,
  portId: r.port_id,
  state: r.state,
  key: r.key,
  vars: JSON.parse(r.vars) as AlertVars,
  firedAt: r.fired_at,
  resolvedAt: r.resolved_at,
});

/** Alert episodes: one row per subject and episode, firing until its condition clears. */
export class AlertHistoryStore {
  constructor(private readonly db: Database) {}

  fire(
    kind: string,
    subject: string,
    portId: number | null,
    key: string,
    vars: AlertVars,
    at: number,
  ): number {
    const r = this.db
      .query<{ id: number }, [string, string, number | null, string, string, number]>(
        "INSERT INTO alerts (kind, subject, port_id, state, key, vars, fired_at) VALUES (?, ?, ?, 'firing', ?, ?, ?) RETURNING id",
      )
      .get(kind, subject, portId, key, JSON.stringify(vars), at);
    this.db
      .query(
        "DELETE FROM alerts WHERE state = 'resolved' AND id < (SELECT id FROM alerts ORDER BY id DESC LIMIT 1 OFFSET ?)",
      )
      .run(KEEP);
    return r?.id ?? 0;
  }

  /** One transaction for a tick's changes: 500 rigs going down at once are one disk sync, not 500. */
  batch(fn: () => void): void {
    this.db.transaction(fn)();
  }

  resolve(id: number, at: number): void {
    this.db.query("UPDATE alerts SET state = 'resolved', resolved_at = ? WHERE id = ?").run(at, id);
  }

  /** Episodes still firing (after a restart the evaluator takes them over instead of firing again). */
  firing(): AlertRow[] {
    return this.db
      .query<Row, []>("SELECT * FROM alerts WHERE state = 'firing' ORDER BY id")
      .all()
      .map(toAlert);
  }

  list(limit: number): AlertRow[] {
    return this.db
      .query<Row, [number]>("SELECT * FROM alerts ORDER BY id DESC LIMIT ?")
      .all(limit)
      .map(toAlert);
  }
}
