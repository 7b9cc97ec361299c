/**
 * The hourly fee audit written by appliance/stats/fee-audit-store.ts: per port, hour and target
 * ("main" or a fee wallet key) the work the pools accepted and rejected, and who the target was and
 * which ratios were in force in that hour, so that a later wallet edit does not rewrite history.
 * Kept 30 days, like series_hour.
 */
export const feeAuditSchema = `
CREATE TABLE fee_audit_hour (
  port_id INTEGER NOT NULL, hour INTEGER NOT NULL, target TEXT NOT NULL,
  wallet_id INTEGER, addr TEXT, worker TEXT, pool TEXT, configured REAL, target_ratio REAL,
  accepted_work REAL NOT NULL, rejected_work REAL NOT NULL,
  accepted_shares INTEGER NOT NULL, rejected_shares INTEGER NOT NULL,
  PRIMARY KEY (port_id, hour, target)) WITHOUT ROWID;
CREATE INDEX fee_audit_hour_by_time ON fee_audit_hour (hour);
`;
