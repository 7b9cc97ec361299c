/**
 * The audit log of configuration changes (appliance/store/audit-log.ts): who (credential, session,
 * address), when, what (action and object), old → new per field, and refused attempts. Append-only:
 * the triggers refuse an UPDATE of any row and a DELETE of a row the anchor does not cover, so only
 * pruning by age (which first moves the anchor past the rows it removes) can take rows away.
 * Each row's hash covers its content and the previous row's hash; the anchor holds the hash the
 * oldest kept row must follow (the genesis value until the first pruning).
 */
export const auditLogSchema = `
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  credential TEXT NOT NULL,
  session TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  object TEXT NOT NULL DEFAULT '',
  outcome TEXT NOT NULL CHECK (outcome IN ('changed', 'refused')),
  detail TEXT NOT NULL DEFAULT '',
  changes TEXT NOT NULL DEFAULT '[]',
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);

CREATE TABLE audit_anchor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through_id INTEGER NOT NULL,
  through_at INTEGER NOT NULL,
  hash TEXT NOT NULL
);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

CREATE TRIGGER audit_log_prune_only BEFORE DELETE ON audit_log
WHEN OLD.id > coalesce((SELECT through_id FROM audit_anchor WHERE id = 1), 0)
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: only entries behind the anchor may be pruned'); END;
`;
