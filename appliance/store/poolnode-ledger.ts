import type { Database } from "bun:sqlite";
import { type Credit, type RebateRule, splitReward } from "../poolnode/accounting/pplns.ts";
import type { BlockStatus } from "../poolnode/pool/block-tracker.ts";

/** A share as the log keeps it; `id` and `cumWork` are given in memory, in order, by the share log. */
export interface ShareRecord {
  id: number;
  at: number;
  address: string;
  worker: string;
  difficulty: number;
  cumWork: number;
  height: number;
}

export type StoredBlockStatus = BlockStatus;

export interface StoredBlock {
  hash: string;
  height: number;
  found_at: number;
  address: string;
  worker: string;
  reward: number;
  verdict: string | null;
  status: StoredBlockStatus;
  confirmations: number | null;
  last_share_id: number;
  credited_at: number | null;
}

export interface WindowWork {
  address: string;
  work: number;
  shares: number;
}

export interface PayoutItem {
  address: string;
  amount: number;
  /** the sub-account withdrawal this line pays; null for a miner's balance */
  withdrawal_id: number | null;
}

export type PayoutState = "pending" | "sent" | "confirmed" | "failed";

export interface Payout {
  id: number;
  created_at: number;
  state: PayoutState;
  comment: string;
  since_block: string;
  txid: string | null;
  total: number;
  error: string;
  items: PayoutItem[];
}

/** A block's credit line as stored (amount in base units). */
export interface CreditLine {
  address: string;
  amount: number;
  kind: "pplns" | "fee" | "rebate";
  work: number;
  /** the sub-account of a rebate line */
  subaccount_id: number | null;
}

export interface Balance {
  address: string;
  balance: number;
  paid: number;
}

/** The tip of the share log: the last id and the work logged up to it. */
export interface LogTip {
  id: number;
  cumWork: number;
}

/**
 * The pool node's ledger in SQLite (migration 010, docs/pool-node.md "Data model"). Every change
 * that moves money — a block's credits with its balances, a payout with its debits, a payout undone
 * — is one transaction, so that a crash leaves either all of it or none.
 */
export class PoolLedgerStore {
  private readonly insertShare;

  constructor(private readonly db: Database) {
    this.insertShare = db.query(
      "INSERT INTO poolnode_shares (id, at, address, worker, difficulty, cum_work, height) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
  }

  /** The database file, for a worker's own read-only connection; null in memory. */
  get file(): string | null {
    return this.db.filename === ":memory:" || this.db.filename === "" ? null : this.db.filename;
  }

  tip(): LogTip {
    const r = this.db
      .query<{ id: number; cum_work: number }, []>(
        "SELECT id, cum_work FROM poolnode_shares ORDER BY id DESC LIMIT 1",
      )
      .get();
    return r === null ? { id: 0, cumWork: 0 } : { id: r.id, cumWork: r.cum_work };
  }

  appendShares(shares: readonly ShareRecord[]): void {
    this.db.transaction(() => {
      for (const s of shares)
        this.insertShare.run(s.id, s.at, s.address, s.worker, s.difficulty, s.cumWork, s.height);
    })();
  }

  /**
   * The work of each address in the window of `window` units ending at share `lastId`: the shares
   * whose work lies (partly) within the last `window` units logged up to it; the oldest one counts
   * only for its part inside. A log holding less than the window gives all it holds.
   */
  windowWork(lastId: number, window: number, address?: string): { first: number; work: WindowWork[] } {
    const bounds = this.windowStart(lastId, window);
    if (bounds === null) return { first: lastId + 1, work: [] };
    const { first, start } = bounds;
    const sql = `SELECT address, SUM(MIN(difficulty, cum_work - ?1)) AS work, COUNT(*) AS shares
                 FROM poolnode_shares WHERE id BETWEEN ?2 AND ?3 ${address === undefined ? "" : "AND address = ?4"}
                 GROUP BY address ORDER BY address`;
    const work =
      address === undefined
        ? this.db.query<WindowWork, [number, number, number]>(sql).all(start, first, lastId)
        : this.db.query<WindowWork, [number, number, number, string]>(sql).all(start, first, lastId, address);
    return { first, work };
  }

  /**
   * The first share of that window and the work logged before the window (`start`), through the
   * cum_work index: no summing over the window.
   */
  private windowStart(
    lastId: number,
    window: number,
  ): { first: number; start: number; end: number; total: number } | null {
    const last = this.db
      .query<{ cum_work: number }, [number]>("SELECT cum_work FROM poolnode_shares WHERE id = ?")
      .get(lastId);
    if (last === null) return null;
    const start = last.cum_work - window;
    const first = this.db
      .query<{ id: number; before: number }, [number]>(
        "SELECT id, cum_work - difficulty AS before FROM poolnode_shares WHERE cum_work > ? ORDER BY cum_work LIMIT 1",
      )
      .get(start) ?? { id: lastId, before: start };
    // the window's work without summing it: from its start, or from its first share when not full
    return {
      first: first.id,
      start,
      end: last.cum_work,
      total: last.cum_work - Math.max(start, first.before),
    };
  }

  /** The block and, when the daemon took it, its window frozen now. */
  recordBlock(
    b: Omit<StoredBlock, "status" | "confirmations" | "credited_at">,
    rules: { window: number; fee: number; poolAddress: string },
  ): void {
    this.db.transaction(() => {
      this.db
        .query(
          `INSERT INTO poolnode_blocks (hash, height, found_at, address, worker, reward, verdict, status, last_share_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
        )
        .run(
          b.hash,
          b.height,
          b.found_at,
          b.address,
          b.worker,
          b.reward,
          b.verdict,
          b.verdict === null ? "submitted" : "rejected",
          b.last_share_id,
        );
      if (b.verdict !== null) return;
      const w = this.windowStart(b.last_share_id, rules.window);
      const [first, total, end] = w === null ? [b.last_share_id + 1, 0, 0] : [w.first, w.total, w.end];
      this.db
        .query(
          `INSERT INTO poolnode_rounds (block_hash, first_share_id, last_share_id, window, total_work, end_work, fee, pool_address)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(b.hash, first, b.last_share_id, rules.window, total, end, rules.fee, rules.poolAddress);
    })();
  }

  /** Blocks still tracked: accepted and neither credited nor given up as orphaned. */
  openBlocks(): StoredBlock[] {
    return this.db
      .query<StoredBlock, []>(
        "SELECT * FROM poolnode_blocks WHERE credited_at IS NULL AND status <> 'rejected' ORDER BY height",
      )
      .all();
  }

  blocks(limit: number): StoredBlock[] {
    return this.db
      .query<StoredBlock, [number]>(
        "SELECT * FROM poolnode_blocks ORDER BY found_at DESC, height DESC LIMIT ?",
      )
      .all(limit);
  }

  blockCount(): number {
    return this.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM poolnode_blocks").get()?.n ?? 0;
  }

  setConfirmations(
    blocks: readonly { hash: string; status: StoredBlockStatus; confirmations: number | null }[],
  ): void {
    if (blocks.length === 0) return;
    const update = this.db.query("UPDATE poolnode_blocks SET status = ?, confirmations = ? WHERE hash = ?");
    this.db.transaction(() => {
      for (const b of blocks) update.run(b.status, b.confirmations, b.hash);
    })();
  }

  /** The frozen window a block's credit sums, while the block is not credited yet. */
  roundToCredit(hash: string): { last_share_id: number; window: number } | null {
    return this.db
      .query<{ last_share_id: number; window: number }, [string]>(
        `SELECT r.last_share_id, r.window FROM poolnode_rounds r JOIN poolnode_blocks b ON b.hash = r.block_hash
         WHERE r.block_hash = ? AND b.credited_at IS NULL`,
      )
      .get(hash);
  }

  /**
   * Credits a matured block once: its frozen window's work split by PPLNS, the credits and the
   * balances they raise in one transaction. `windowWork` is the window's work per address when it was
   * summed elsewhere (a worker's connection: the window's shares do not change while the block is not
   * credited); otherwise it is summed here. Returns the credits (none if it was credited before).
   */
  creditBlock(hash: string, now: number, windowWork?: readonly WindowWork[]): Credit[] {
    return this.db.transaction(() => {
      const block = this.db
        .query<StoredBlock, [string]>("SELECT * FROM poolnode_blocks WHERE hash = ? AND credited_at IS NULL")
        .get(hash);
      const round = this.db
        .query<{ last_share_id: number; window: number; fee: number; pool_address: string }, [string]>(
          "SELECT last_share_id, window, fee, pool_address FROM poolnode_rounds WHERE block_hash = ?",
        )
        .get(hash);
      if (block === null || round === null) return [];
      const work = windowWork ?? this.windowWork(round.last_share_id, round.window).work;
      const credits = splitReward(
        BigInt(block.reward),
        round.fee,
        new Map(work.map((w) => [w.address, w.work])),
        round.pool_address,
        this.rebateRules(),
      );
      const insert = this.db.query(
        "INSERT INTO poolnode_credits (block_hash, address, amount, kind, work, subaccount_id) VALUES (?, ?, ?, ?, ?, ?)",
      );
      const raise = this.db.query(
        "INSERT INTO poolnode_balances (address, balance) VALUES (?1, ?2) ON CONFLICT (address) DO UPDATE SET balance = balance + ?2",
      );
      for (const c of credits) {
        insert.run(hash, c.address, c.amount, c.kind, c.work, c.subaccount ?? null);
        // the fee stays in the pool's wallet: it is income, not a balance to pay out; a rebate is the
        // sub-account's, whose balance is its rebate lines less its withdrawals
        if (c.kind === "pplns") raise.run(c.address, c.amount);
      }
      this.db.query("UPDATE poolnode_blocks SET credited_at = ? WHERE hash = ?").run(now, hash);
      return credits;
    })();
  }

  /** The sub-accounts as they stand when a block is credited: a rebate changed later moves nothing. */
  private rebateRules(): RebateRule[] {
    const rows = this.db
      .query<{ id: number; rebate: number; address: string }, []>(
        `SELECT s.id, s.rebate, m.address FROM poolnode_subaccounts s JOIN poolnode_subaccount_members m ON m.subaccount_id = s.id
         WHERE s.rebate > 0 ORDER BY s.id, m.address`,
      )
      .all();
    const rules = new Map<number, RebateRule & { addresses: string[] }>();
    for (const r of rows) {
      const rule = rules.get(r.id) ?? { subaccount: r.id, ratio: r.rebate, addresses: [] };
      rule.addresses.push(r.address);
      rules.set(r.id, rule);
    }
    return [...rules.values()];
  }

  /** An orphaned block the chain has left far behind: it credits nobody and no longer holds shares. */
  closeOrphan(hash: string, now: number): void {
    this.db
      .query("UPDATE poolnode_blocks SET credited_at = ? WHERE hash = ? AND status = 'orphaned'")
      .run(now, hash);
  }

  /**
   * Drops the shares no window still needs: those below the oldest window of a block not yet credited
   * and below the window the next block would take, at most `limit` of them (the oldest; share ids
   * are consecutive). Returns how many went.
   */
  prune(window: number, limit = Number.POSITIVE_INFINITY): number {
    const tip = this.tip();
    if (tip.id === 0) return 0;
    const current = this.windowStart(tip.id, window)?.first ?? tip.id;
    const open =
      this.db
        .query<{ id: number | null }, []>(
          `SELECT MIN(r.first_share_id) AS id FROM poolnode_rounds r JOIN poolnode_blocks b ON b.hash = r.block_hash
           WHERE b.credited_at IS NULL`,
        )
        .get()?.id ?? current;
    let cut = Math.min(current, open);
    if (Number.isFinite(limit)) {
      const first =
        this.db.query<{ id: number | null }, []>("SELECT MIN(id) AS id FROM poolnode_shares").get()?.id ??
        cut;
      cut = Math.min(cut, first + limit);
    }
    return this.db.query("DELETE FROM poolnode_shares WHERE id < ?").run(cut).changes;
  }

  // ── payouts ──

  /**
   * Step (1) of a payout: every balance at or above the threshold, and every approved withdrawal not
   * yet in a payout (unless `withdrawals` is false), go into one pending payout with a unique comment;
   * the balances are debited (a withdrawal's amount was held when it was requested), in one
   * transaction. null when nobody is due.
   */
  createPayout(
    threshold: number,
    comment: string,
    sinceBlock: string,
    now: number,
    withdrawals = true,
  ): Payout | null {
    return this.db.transaction(() => {
      const due = this.db
        .query<{ address: string; balance: number }, [number]>(
          "SELECT address, balance FROM poolnode_balances WHERE balance >= ? AND balance > 0 ORDER BY address",
        )
        .all(threshold);
      const approved = withdrawals
        ? this.db
            .query<{ id: number; address: string; amount: number }, []>(
              "SELECT id, address, amount FROM poolnode_withdrawals WHERE state = 'approved' AND payout_id IS NULL ORDER BY id",
            )
            .all()
        : [];
      if (due.length === 0 && approved.length === 0) return null;
      const total =
        due.reduce((sum, d) => sum + d.balance, 0) + approved.reduce((sum, w) => sum + w.amount, 0);
      const id = Number(
        this.db
          .query(
            "INSERT INTO poolnode_payouts (created_at, state, comment, since_block, total, updated_at) VALUES (?, 'pending', ?, ?, ?, ?)",
          )
          .run(now, comment, sinceBlock, total, now).lastInsertRowid,
      );
      const item = this.db.query(
        "INSERT INTO poolnode_payout_items (payout_id, address, amount, withdrawal_id) VALUES (?, ?, ?, ?)",
      );
      const debit = this.db.query("UPDATE poolnode_balances SET balance = balance - ? WHERE address = ?");
      for (const d of due) {
        item.run(id, d.address, d.balance, null);
        debit.run(d.balance, d.address);
      }
      const paying = this.db.query(
        "UPDATE poolnode_withdrawals SET payout_id = ?, updated_at = ? WHERE id = ?",
      );
      for (const w of approved) {
        item.run(id, w.address, w.amount, w.id);
        paying.run(id, now, w.id);
      }
      return this.payout(id);
    })();
  }

  /** Step (3): the wallet sent it; its items count as paid. */
  markSent(id: number, txid: string, now: number): void {
    this.db.transaction(() => {
      const changed = this.db
        .query(
          "UPDATE poolnode_payouts SET state = 'sent', txid = ?, updated_at = ? WHERE id = ? AND state = 'pending'",
        )
        .run(txid, now, id).changes;
      if (changed === 0) return;
      this.db
        .query(
          `UPDATE poolnode_balances SET paid = paid + (SELECT amount FROM poolnode_payout_items i
             WHERE i.payout_id = ?1 AND i.address = poolnode_balances.address AND i.withdrawal_id IS NULL)
           WHERE address IN (SELECT address FROM poolnode_payout_items WHERE payout_id = ?1 AND withdrawal_id IS NULL)`,
        )
        .run(id);
      this.db
        .query(
          "UPDATE poolnode_withdrawals SET state = 'paid', reason = '', updated_at = ? WHERE payout_id = ? AND state = 'approved'",
        )
        .run(now, id);
    })();
  }

  markConfirmed(id: number, now: number): void {
    this.db
      .query(
        "UPDATE poolnode_payouts SET state = 'confirmed', updated_at = ? WHERE id = ? AND state = 'sent'",
      )
      .run(now, id);
  }

  /**
   * The wallet never sent it: the debits are given back, in one transaction with the state; its
   * withdrawals stay approved, their amounts held, for the next payout, and carry the reason until
   * one pays them (the operator sees why an approved withdrawal is not paid yet).
   */
  undoPayout(id: number, error: string, now: number): void {
    this.db.transaction(() => {
      const changed = this.db
        .query(
          "UPDATE poolnode_payouts SET state = 'failed', error = ?, updated_at = ? WHERE id = ? AND state = 'pending'",
        )
        .run(error.slice(0, 500), now, id).changes;
      if (changed === 0) return;
      this.db
        .query(
          `UPDATE poolnode_balances SET balance = balance + (SELECT amount FROM poolnode_payout_items i
             WHERE i.payout_id = ?1 AND i.address = poolnode_balances.address AND i.withdrawal_id IS NULL)
           WHERE address IN (SELECT address FROM poolnode_payout_items WHERE payout_id = ?1 AND withdrawal_id IS NULL)`,
        )
        .run(id);
      this.db
        .query(
          "UPDATE poolnode_withdrawals SET payout_id = NULL, reason = ?, updated_at = ? WHERE payout_id = ? AND state = 'approved'",
        )
        .run(error.slice(0, 500), now, id);
    })();
  }

  payoutsIn(state: PayoutState): Payout[] {
    return this.db
      .query<{ id: number }, [string]>("SELECT id FROM poolnode_payouts WHERE state = ? ORDER BY id")
      .all(state)
      .map((r) => this.payout(r.id) as Payout);
  }

  payout(id: number): Payout | null {
    const p = this.db
      .query<Omit<Payout, "items">, [number]>("SELECT * FROM poolnode_payouts WHERE id = ?")
      .get(id);
    if (p === null) return null;
    const items = this.db
      .query<PayoutItem, [number]>(
        "SELECT address, amount, withdrawal_id FROM poolnode_payout_items WHERE payout_id = ? ORDER BY address, withdrawal_id",
      )
      .all(id);
    return { ...p, items };
  }

  /**
   * Balances as the credits and payouts make them, against the rows kept for speed; a row that
   * disagrees is set to the derived value. Returns the addresses that were corrected.
   */
  checkBalances(): string[] {
    return this.db.transaction(() => {
      const derived = this.db
        .query<Balance, []>(
          `SELECT address,
             COALESCE((SELECT SUM(amount) FROM poolnode_credits c WHERE c.address = a.address AND c.kind = 'pplns'), 0)
               - COALESCE((SELECT SUM(i.amount) FROM poolnode_payout_items i JOIN poolnode_payouts p ON p.id = i.payout_id
                           WHERE i.address = a.address AND i.withdrawal_id IS NULL AND p.state <> 'failed'), 0) AS balance,
             COALESCE((SELECT SUM(i.amount) FROM poolnode_payout_items i JOIN poolnode_payouts p ON p.id = i.payout_id
                       WHERE i.address = a.address AND i.withdrawal_id IS NULL AND p.state IN ('sent', 'confirmed')), 0) AS paid
           FROM (SELECT address FROM poolnode_credits WHERE kind = 'pplns' UNION SELECT address FROM poolnode_balances) a`,
        )
        .all();
      const corrected: string[] = [];
      for (const d of derived) {
        const kept = this.balance(d.address);
        if (kept.balance === d.balance && kept.paid === d.paid) continue;
        this.db
          .query(
            "INSERT INTO poolnode_balances (address, balance, paid) VALUES (?1, ?2, ?3) ON CONFLICT (address) DO UPDATE SET balance = ?2, paid = ?3",
          )
          .run(d.address, d.balance, d.paid);
        corrected.push(d.address);
      }
      return corrected;
    })();
  }

  // ── reading, for the API ──

  balance(address: string): Balance {
    return (
      this.db
        .query<Balance, [string]>("SELECT address, balance, paid FROM poolnode_balances WHERE address = ?")
        .get(address) ?? { address, balance: 0, paid: 0 }
    );
  }

  /** Credited blocks, newest first, with their credit lines (only `address`'s when given). */
  rewards(limit: number, address?: string): { block: StoredBlock; credits: CreditLine[] }[] {
    const blocks =
      address === undefined
        ? this.db
            .query<StoredBlock, [number]>(
              "SELECT * FROM poolnode_blocks WHERE hash IN (SELECT block_hash FROM poolnode_credits) ORDER BY credited_at DESC, height DESC LIMIT ?",
            )
            .all(limit)
        : this.db
            .query<StoredBlock, [string, number]>(
              "SELECT * FROM poolnode_blocks WHERE hash IN (SELECT block_hash FROM poolnode_credits WHERE address = ?) ORDER BY credited_at DESC, height DESC LIMIT ?",
            )
            .all(address, limit);
    const lines = this.db.query<CreditLine, [string]>(
      "SELECT address, amount, kind, work, subaccount_id FROM poolnode_credits WHERE block_hash = ? ORDER BY kind DESC, address, subaccount_id",
    );
    return blocks.map((block) => ({
      block,
      credits: lines.all(block.hash).filter((c) => address === undefined || c.address === address),
    }));
  }

  payouts(limit: number, address?: string): Payout[] {
    const ids =
      address === undefined
        ? this.db
            .query<{ id: number }, [number]>("SELECT id FROM poolnode_payouts ORDER BY id DESC LIMIT ?")
            .all(limit)
        : this.db
            .query<{ id: number }, [string, number]>(
              "SELECT DISTINCT payout_id AS id FROM poolnode_payout_items WHERE address = ? ORDER BY payout_id DESC LIMIT ?",
            )
            .all(address, limit);
    return ids.map((r) => this.payout(r.id) as Payout);
  }

  /** The pool's fee lines: total, and per credited block newest first. */
  profit(limit: number): {
    total: number;
    blocks: { hash: string; height: number; amount: number; at: number }[];
  } {
    const total =
      this.db
        .query<{ t: number | null }, []>("SELECT SUM(amount) AS t FROM poolnode_credits WHERE kind = 'fee'")
        .get()?.t ?? 0;
    const blocks = this.db
      .query<{ hash: string; height: number; amount: number; at: number }, [number]>(
        `SELECT b.hash, b.height, c.amount, b.credited_at AS at FROM poolnode_credits c JOIN poolnode_blocks b ON b.hash = c.block_hash
         WHERE c.kind = 'fee' ORDER BY b.credited_at DESC, b.height DESC LIMIT ?`,
      )
      .all(limit);
    return { total, blocks };
  }

  /** Work and shares logged since `since` (ms), per worker of one address or of all. */
  recentWork(
    since: number,
    address?: string,
  ): { worker: string; address: string; work: number; shares: number; last: number }[] {
    const sql = `SELECT worker, address, SUM(difficulty) AS work, COUNT(*) AS shares, MAX(at) AS last FROM poolnode_shares
                 WHERE at >= ?1 ${address === undefined ? "" : "AND address = ?2"} GROUP BY worker ORDER BY worker`;
    return address === undefined
      ? this.db
          .query<{ worker: string; address: string; work: number; shares: number; last: number }, [number]>(
            sql,
          )
          .all(since)
      : this.db
          .query<
            { worker: string; address: string; work: number; shares: number; last: number },
            [number, string]
          >(sql)
          .all(since, address);
  }

  /** Work logged after the share of the newest accepted block (the current round's). */
  workSinceLastBlock(): number {
    const since =
      this.db
        .query<{ w: number }, []>(
          "SELECT end_work AS w FROM poolnode_rounds ORDER BY last_share_id DESC LIMIT 1",
        )
        .get()?.w ?? 0;
    return this.tip().cumWork - since;
  }
}
