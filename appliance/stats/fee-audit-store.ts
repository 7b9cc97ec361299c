/**
 * The hourly fee audit (table fee_audit_hour, migration 003): per port, hour and target the work the
 * pools accepted and rejected, with the target's wallet, pool and ratios as they were in that hour.
 * Minutes arrive from the registry's tick like the series samples and are written with them, in the
 * series store's transaction, never on the share path. Hours are kept 30 days, like series_hour.
 */
import type { Database } from "bun:sqlite";
import type { TargetSample } from "../domain/engine.ts";
import type { TargetMeta, TargetsInForce } from "./targets-in-force.ts";
import { MAIN } from "./work-split.ts";

export const AUDIT_KEEP_HOURS = 30 * 24;
/** what a target was is remembered this long after it left the configuration (edited or removed) */
const FORGET_META_HOURS = 2;

/** The targets of a port in force now; null when the port no longer exists. */
export type TargetsSource = (portId: number) => TargetsInForce | null;

/** One stored hour of one target. Who and which ratios are null where they were never known. */
export interface AuditRow {
  /** epoch hour (ms / 3600000) */
  hour: number;
  /** "main" or the fee wallet key */
  target: string;
  walletId: number | null;
  addr: string | null;
  worker: string | null;
  pool: string | null;
  configured: number | null;
  targetRatio: number | null;
  acceptedWork: number;
  rejectedWork: number;
  acceptedShares: number;
  rejectedShares: number;
}

interface Counts {
  acceptedWork: number;
  rejectedWork: number;
  acceptedShares: number;
  rejectedShares: number;
}

const NONE: Counts = { acceptedWork: 0, rejectedWork: 0, acceptedShares: 0, rejectedShares: 0 };

export class FeeAuditStore {
  private buffer: TargetSample[] = [];
  /** "portId|key" → the target as last seen in force, for shares that outlive their wallet's edit */
  private readonly known = new Map<string, { meta: TargetMeta; hour: number }>();

  constructor(
    private readonly db: Database,
    private readonly inForce: TargetsSource,
  ) {}

  add(sample: TargetSample): void {
    this.buffer.push(sample);
  }

  /**
   * Adds the buffered minutes to their hours. Every hour a port had work in also gets a row for each
   * fee wallet in force with a ratio, so an hour where a wallet was owed work but got none shows.
   * Runs inside the caller's transaction.
   */
  write(now: number): void {
    const nowHour = Math.floor(now / 3_600_000);
    const byPort = this.drain();
    const upsert = this.db.prepare(
      `INSERT INTO fee_audit_hour VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
       ON CONFLICT(port_id, hour, target) DO UPDATE SET
       wallet_id = coalesce(excluded.wallet_id, wallet_id), addr = coalesce(excluded.addr, addr),
       worker = coalesce(excluded.worker, worker), pool = coalesce(excluded.pool, pool),
       configured = coalesce(excluded.configured, configured),
       target_ratio = coalesce(excluded.target_ratio, target_ratio),
       accepted_work = accepted_work + excluded.accepted_work,
       rejected_work = rejected_work + excluded.rejected_work,
       accepted_shares = accepted_shares + excluded.accepted_shares,
       rejected_shares = rejected_shares + excluded.rejected_shares`,
    );
    for (const [portId, hours] of byPort) {
      const inForce = this.inForce(portId);
      for (const [key, meta] of inForce ?? []) this.known.set(`${portId}|${key}`, { meta, hour: nowHour });
      for (const [hour, targets] of hours) {
        const keys = new Set(targets.keys());
        for (const [key, meta] of inForce ?? []) if (key === MAIN || meta.configured > 0) keys.add(key);
        for (const key of keys) {
          const m = inForce?.get(key) ?? this.known.get(`${portId}|${key}`)?.meta ?? null;
          const c = targets.get(key) ?? NONE;
          upsert.run(
            portId,
            hour,
            key,
            m?.walletId ?? null,
            m?.addr ?? null,
            m?.worker ?? null,
            m?.pool ?? null,
            m?.configured ?? null,
            m?.target ?? null,
            c.acceptedWork,
            c.rejectedWork,
            c.acceptedShares,
            c.rejectedShares,
          );
        }
      }
    }
    for (const [k, v] of this.known) if (nowHour - v.hour > FORGET_META_HOURS) this.known.delete(k);
    this.db.run("DELETE FROM fee_audit_hour WHERE hour < ?", [nowHour - AUDIT_KEEP_HOURS]);
  }

  /** The buffer summed per port, hour and target. */
  private drain(): Map<number, Map<number, Map<string, Counts>>> {
    const batch = this.buffer;
    this.buffer = [];
    const byPort = new Map<number, Map<number, Map<string, Counts>>>();
    for (const s of batch) {
      let hours = byPort.get(s.portId);
      if (!hours) {
        hours = new Map();
        byPort.set(s.portId, hours);
      }
      const hour = Math.floor(s.minute / 60);
      let targets = hours.get(hour);
      if (!targets) {
        targets = new Map();
        hours.set(hour, targets);
      }
      const c = targets.get(s.target) ?? { ...NONE };
      c.acceptedWork += s.acceptedWork;
      c.rejectedWork += s.rejectedWork;
      c.acceptedShares += s.acceptedShares;
      c.rejectedShares += s.rejectedShares;
      targets.set(s.target, c);
    }
    return byPort;
  }
}

/** The stored hours of one port from `fromHour` to `toHour` inclusive, oldest first, main first. */
export function readFeeAudit(db: Database, portId: number, fromHour: number, toHour: number): AuditRow[] {
  return db
    .query<AuditRow, [number, number, number, string]>(
      `SELECT hour, target, wallet_id AS walletId, addr, worker, pool, configured,
       target_ratio AS targetRatio, accepted_work AS acceptedWork, rejected_work AS rejectedWork,
       accepted_shares AS acceptedShares, rejected_shares AS rejectedShares
       FROM fee_audit_hour WHERE port_id = ? AND hour >= ? AND hour <= ?
       ORDER BY hour, target <> ?4, wallet_id, target`,
    )
    .all(portId, fromHour, toHour, MAIN);
}
