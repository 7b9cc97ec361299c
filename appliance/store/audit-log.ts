import type { Database } from "bun:sqlite";
import { type ChainCheck, checkChain, entryHash, GENESIS } from "../audit/chain.ts";
import type { FieldChange } from "../audit/diff.ts";

/** Who made a change: the admin session (its short id), a machine token, the command line, or nobody logged in. */
export type AuditCredential = "admin" | "control" | "metrics" | "cli" | "none";
export type AuditOutcome = "changed" | "refused";

export interface AuditInput {
  credential: AuditCredential;
  /** the session's short id for the admin, "" otherwise */
  session: string;
  address: string;
  /** "POST /api/wallet/3" */
  action: string;
  /** what was changed, readable: "fee wallet 3 of port 4000" */
  object: string;
  outcome: AuditOutcome;
  /** why a refused attempt was refused */
  detail?: string;
  changes?: FieldChange[];
}

export interface AuditEntry {
  id: number;
  at: number;
  credential: string;
  session: string;
  address: string;
  action: string;
  object: string;
  outcome: AuditOutcome;
  detail: string;
  changes: string;
  prev_hash: string;
  hash: string;
}

export interface AuditQuery {
  from?: number;
  to?: number;
  /** text that must appear in the action, object, changes, credential, address or detail */
  q?: string;
  limit: number;
  offset: number;
}

/** Kept by age only: a flood of requests can never push an entry out. */
export const AUDIT_KEEP_MS = 90 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * The append-only audit log of configuration changes. It lives on the main connection (FULL sync):
 * an acknowledged change and its audit entry are equally durable. Appending reads the last hash and
 * inserts in one transaction, so the chain has no forks.
 */
export class AuditLog {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  append(input: AuditInput): void {
    const at = this.now();
    if (at - this.lastPrune > PRUNE_EVERY_MS) this.prune(at);
    this.db.transaction(() => {
      const last = this.db
        .query<{ id: number; hash: string }, []>("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1")
        .get();
      const anchor = this.anchor();
      const fields = {
        id: Math.max(last?.id ?? 0, anchor.throughId) + 1,
        at,
        credential: input.credential,
        session: input.session,
        address: input.address,
        action: input.action,
        object: input.object,
        outcome: input.outcome,
        detail: input.detail ?? "",
        changes: JSON.stringify(input.changes ?? []),
        prev_hash: last?.hash ?? anchor.hash,
      };
      this.db
        .query(
          `INSERT INTO audit_log (id, at, credential, session, address, action, object, outcome, detail, changes, prev_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          fields.id,
          fields.at,
          fields.credential,
          fields.session,
          fields.address,
          fields.action,
          fields.object,
          fields.outcome,
          fields.detail,
          fields.changes,
          fields.prev_hash,
          entryHash(fields),
        );
    })();
  }

  /**
   * Removes entries older than AUDIT_KEEP_MS. The anchor first moves to the last removed entry's hash
   * (the triggers allow deleting only rows behind it), so what is kept still verifies.
   */
  prune(now: number = this.now()): number {
    this.lastPrune = now;
    return this.db.transaction(() => {
      const last = this.db
        .query<{ id: number; at: number; hash: string }, [number]>(
          "SELECT id, at, hash FROM audit_log WHERE at < ? ORDER BY id DESC LIMIT 1",
        )
        .get(now - AUDIT_KEEP_MS);
      if (!last) return 0;
      this.db
        .query(
          `INSERT INTO audit_anchor (id, through_id, through_at, hash) VALUES (1, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET through_id = excluded.through_id, through_at = excluded.through_at, hash = excluded.hash`,
        )
        .run(last.id, last.at, last.hash);
      return this.db.query("DELETE FROM audit_log WHERE id <= ?").run(last.id).changes;
    })();
  }

  anchor(): { throughId: number; throughAt: number; hash: string } {
    const row = this.db
      .query<{ through_id: number; through_at: number; hash: string }, []>(
        "SELECT through_id, through_at, hash FROM audit_anchor WHERE id = 1",
      )
      .get();
    return row
      ? { throughId: row.through_id, throughAt: row.through_at, hash: row.hash }
      : { throughId: 0, throughAt: 0, hash: GENESIS };
  }

  /** Newest first, one page, with the number of entries that match. */
  list(query: AuditQuery): { total: number; items: AuditEntry[] } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (query.from !== undefined) {
      where.push("at >= ?");
      args.push(query.from);
    }
    if (query.to !== undefined) {
      where.push("at <= ?");
      args.push(query.to);
    }
    if (query.q) {
      where.push(
        "instr(lower(credential || ' ' || session || ' ' || address || ' ' || action || ' ' || object || ' ' || outcome || ' ' || detail || ' ' || changes), lower(?)) > 0",
      );
      args.push(query.q);
    }
    const sql = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const total =
      this.db
        .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM audit_log ${sql}`)
        .get(...args)?.n ?? 0;
    const items = this.db
      .query<AuditEntry, (string | number)[]>(
        `SELECT * FROM audit_log ${sql} ORDER BY id DESC LIMIT ? OFFSET ?`,
      )
      .all(...args, query.limit, query.offset);
    return { total, items };
  }

  /**
   * Recomputes the chain from the anchor over every kept entry. Pruning only ever removes entries
   * older than AUDIT_KEEP_MS, so an anchor over younger entries means rows were cut from the start.
   */
  verify(now: number = this.now()): ChainCheck {
    const anchor = this.anchor();
    if (anchor.throughId > 0 && anchor.throughAt >= now - AUDIT_KEEP_MS)
      return {
        ok: false,
        entries: 0,
        brokenId: anchor.throughId,
        reason: "entries up to it were removed before they were 90 days old",
      };
    const rows = this.db.query<AuditEntry, []>("SELECT * FROM audit_log ORDER BY id ASC").iterate();
    return checkChain(anchor.hash, rows);
  }
}
