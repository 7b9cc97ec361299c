/**
 * The audit log's hash chain. Each entry's hash is SHA-256 over the previous entry's hash and the
 * entry's own fields (a JSON array, so no two different entries hash the same text). The first entry
 * follows GENESIS, or after pruning by age the anchor: the hash of the last entry pruned. Editing,
 * inserting or removing a row breaks the chain at that row unless every later hash is recomputed
 * too; `pithead audit verify` prints the head hash so an operator can note it elsewhere and catch that.
 */
import { createHash } from "node:crypto";

export const GENESIS = "0".repeat(64);

/** What an entry's hash covers: everything but the hash itself. */
export interface ChainedFields {
  id: number;
  at: number;
  credential: string;
  session: string;
  address: string;
  action: string;
  object: string;
  outcome: string;
  detail: string;
  /** JSON text of the changes, as stored */
  changes: string;
  prev_hash: string;
}

export function entryHash(e: ChainedFields): string {
  const content = JSON.stringify([
    e.prev_hash,
    e.id,
    e.at,
    e.credential,
    e.session,
    e.address,
    e.action,
    e.object,
    e.outcome,
    e.detail,
    e.changes,
  ]);
  return createHash("sha256").update(content).digest("hex");
}

export type ChainCheck =
  | { ok: true; entries: number; head: string }
  | { ok: false; entries: number; brokenId: number; reason: string };

/**
 * Walks the entries oldest first from the anchor hash: each must name the previous hash and carry
 * the hash of its own content. Stops at the first entry that does not.
 */
export function checkChain(anchor: string, rows: Iterable<ChainedFields & { hash: string }>): ChainCheck {
  let expected = anchor;
  let entries = 0;
  for (const row of rows) {
    entries++;
    if (row.prev_hash !== expected)
      return { ok: false, entries, brokenId: row.id, reason: "does not follow the entry before it" };
    if (entryHash(row) !== row.hash)
      return { ok: false, entries, brokenId: row.id, reason: "its content does not match its hash" };
    expected = row.hash;
  }
  return { ok: true, entries, head: expected };
}
