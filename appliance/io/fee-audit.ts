/**
 * The fee audit as a table (header first), for CSV and xlsx alike: one row per hour and target, then
 * one total row per target over the range. Ratios are shares of the port's accepted work: achieved is
 * the target's accepted work over all targets' in the hour; gap = achieved − target (the effective
 * ratio, overrides weighted in), as the console shows it. In a total row the configured and target
 * ratios are the hours' ratios weighted by the port's accepted work in each hour, so a wallet added
 * halfway through the range owes half its ratio.
 */
import type { AuditRow } from "../stats/fee-audit-store.ts";
import { MAIN } from "../stats/work-split.ts";
import type { Cell } from "./xlsx.ts";

export const FEE_AUDIT_COLUMNS = [
  "hour_utc",
  "target",
  "worker",
  "pool_address",
  "accepted_work_hashes",
  "rejected_work_hashes",
  "accepted_shares",
  "rejected_shares",
  "configured_ratio",
  "target_ratio",
  "achieved_ratio",
  "gap",
] as const;

export const MAIN_LABEL = "main pool";
export const TOTAL_LABEL = "total";

/** Ten significant digits: the float noise of a division is not part of the figure. */
const ratio = (r: number | null): number | null => (r === null ? null : Number(r.toPrecision(10)));

const hourText = (hour: number): string => new Date(hour * 3_600_000).toISOString().replace(".000Z", "Z");

function label(r: AuditRow): string {
  if (r.target === MAIN) return MAIN_LABEL;
  if (r.addr) return r.addr;
  return r.walletId !== null ? `wallet #${r.walletId}` : r.target;
}

interface Total {
  last: AuditRow;
  acceptedWork: number;
  rejectedWork: number;
  acceptedShares: number;
  rejectedShares: number;
  /** Σ ratio × port work over the hours whose ratios are known */
  configuredSum: number;
  targetSum: number;
  /** port work of the hours whose ratios were never known, left out of the weighting */
  unknownWeight: number;
}

function row(
  hour: string,
  r: AuditRow,
  configured: number | null,
  target: number | null,
  achieved: number | null,
): Cell[] {
  return [
    hour,
    label(r),
    r.target === MAIN || !r.worker ? null : r.worker,
    r.pool || null,
    r.acceptedWork,
    r.rejectedWork,
    r.acceptedShares,
    r.rejectedShares,
    ratio(configured),
    ratio(target),
    ratio(achieved),
    ratio(achieved !== null && target !== null ? achieved - target : null),
  ];
}

/** `rows` as readFeeAudit returns them: oldest hour first, main first within an hour. */
export function feeAuditTable(rows: readonly AuditRow[]): Cell[][] {
  const portWork = new Map<number, number>();
  for (const r of rows) portWork.set(r.hour, (portWork.get(r.hour) ?? 0) + r.acceptedWork);
  const table: Cell[][] = [[...FEE_AUDIT_COLUMNS]];
  const totals = new Map<string, Total>();
  for (const r of rows) {
    const work = portWork.get(r.hour) ?? 0;
    table.push(
      row(hourText(r.hour), r, r.configured, r.targetRatio, work > 0 ? r.acceptedWork / work : null),
    );
    const t = totals.get(r.target) ?? {
      last: r,
      acceptedWork: 0,
      rejectedWork: 0,
      acceptedShares: 0,
      rejectedShares: 0,
      configuredSum: 0,
      targetSum: 0,
      unknownWeight: 0,
    };
    t.last = r.addr !== null || t.last.addr === null ? r : t.last;
    t.acceptedWork += r.acceptedWork;
    t.rejectedWork += r.rejectedWork;
    t.acceptedShares += r.acceptedShares;
    t.rejectedShares += r.rejectedShares;
    if (r.configured === null || r.targetRatio === null) t.unknownWeight += work;
    else {
      t.configuredSum += r.configured * work;
      t.targetSum += r.targetRatio * work;
    }
    totals.set(r.target, t);
  }
  let rangeWork = 0;
  for (const w of portWork.values()) rangeWork += w;
  // main first, then by wallet; a wallet's edits in the order they happened (the sort is stable)
  const ordered = [...totals.values()].sort(
    (a, b) =>
      Number(a.last.target !== MAIN) - Number(b.last.target !== MAIN) ||
      (a.last.walletId ?? 0) - (b.last.walletId ?? 0),
  );
  for (const t of ordered) {
    const known = rangeWork - t.unknownWeight;
    table.push(
      row(
        TOTAL_LABEL,
        {
          ...t.last,
          acceptedWork: t.acceptedWork,
          rejectedWork: t.rejectedWork,
          acceptedShares: t.acceptedShares,
          rejectedShares: t.rejectedShares,
        },
        known > 0 ? t.configuredSum / known : null,
        known > 0 ? t.targetSum / known : null,
        rangeWork > 0 ? t.acceptedWork / rangeWork : null,
      ),
    );
  }
  return table;
}
