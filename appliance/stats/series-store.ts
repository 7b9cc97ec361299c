/**
 * Persisted statistics (design.md): per-device and per-port minute buckets for 24 h and hour buckets
 * for 30 days, and the hourly fee audit per port and target. Samples are buffered in memory and
 * written in one transaction per flush, never on the share path. The tables come from migrations 002
 * and 003 (appliance/store/migrations).
 */
import type { Database } from "bun:sqlite";
import type { SeriesSample, SeriesSink, TargetSample } from "../domain/engine.ts";
import { FeeAuditStore, type TargetsSource } from "./fee-audit-store.ts";

const MINUTE_KEEP = 24 * 60;
const HOUR_KEEP = 30 * 24;
const FLUSH_MS = 60_000;

export interface SeriesPoint {
  /** start of the bucket, ms since epoch */
  at: number;
  /** hashes per second over the bucket */
  hashrate: number;
  feeHashrate: number;
  valid: number;
  invalid: number;
  stale: number;
}

export class SeriesStore implements SeriesSink {
  private buffer: SeriesSample[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly feeAudit: FeeAuditStore;

  /** `targets` tells the fee audit who each target of a port is (appliance.ts wires it). */
  constructor(
    private readonly db: Database,
    targets: TargetsSource = () => null,
  ) {
    this.feeAudit = new FeeAuditStore(db, targets);
  }

  add(sample: SeriesSample): void {
    this.buffer.push(sample);
  }

  addTarget(sample: TargetSample): void {
    this.feeAudit.add(sample);
  }

  /** Flush every minute in the background until close(). */
  start(intervalMs = FLUSH_MS): void {
    this.timer ??= setInterval(() => this.flush(), intervalMs);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  flush(now = Date.now()): void {
    const batch = this.buffer;
    this.buffer = [];
    const upMinute = this.db.prepare(
      `INSERT INTO series_minute VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(port_id, device, minute) DO UPDATE SET
       work = work + excluded.work, fee_work = fee_work + excluded.fee_work, valid = valid + excluded.valid,
       invalid = invalid + excluded.invalid, stale = stale + excluded.stale`,
    );
    const upHour = this.db.prepare(
      `INSERT INTO series_hour VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(port_id, device, hour) DO UPDATE SET
       work = work + excluded.work, fee_work = fee_work + excluded.fee_work, valid = valid + excluded.valid,
       invalid = invalid + excluded.invalid, stale = stale + excluded.stale`,
    );
    const nowMinute = Math.floor(now / 60_000);
    this.db.transaction(() => {
      for (const s of batch) {
        const row = [s.work, s.feeWork, s.valid, s.invalid, s.stale] as const;
        upMinute.run(s.portId, s.device, s.minute, ...row);
        upHour.run(s.portId, s.device, Math.floor(s.minute / 60), ...row);
      }
      this.db.run("DELETE FROM series_minute WHERE minute < ?", [nowMinute - MINUTE_KEEP]);
      this.db.run("DELETE FROM series_hour WHERE hour < ?", [Math.floor(nowMinute / 60) - HOUR_KEEP]);
      this.feeAudit.write(now);
    })();
  }

  /** Buckets of one port ("" device = port total) or one device, oldest first. */
  read(
    portId: number,
    device: string,
    resolution: "minute" | "hour",
    fromMs: number,
    toMs: number,
  ): SeriesPoint[] {
    const unit = resolution === "minute" ? 60_000 : 3_600_000;
    const col = resolution === "minute" ? "minute" : "hour";
    const rows = this.db
      .query<
        { t: number; work: number; fee_work: number; valid: number; invalid: number; stale: number },
        [number, string, number, number]
      >(
        `SELECT ${col} AS t, work, fee_work, valid, invalid, stale FROM series_${col}
         WHERE port_id = ? AND device = ? AND ${col} >= ? AND ${col} <= ? ORDER BY ${col}`,
      )
      .all(portId, device, Math.floor(fromMs / unit), Math.floor(toMs / unit));
    return rows.map((r) => ({
      at: r.t * unit,
      hashrate: r.work / (unit / 1000),
      feeHashrate: r.fee_work / (unit / 1000),
      valid: r.valid,
      invalid: r.invalid,
      stale: r.stale,
    }));
  }
}
