import type { Database } from "bun:sqlite";

/**
 * The pool node's sub-accounts and their withdrawals (migration 011, docs/pool-node.md). A
 * sub-account's balance is derived, never kept: its rebate credits less its withdrawals not refused.
 * A withdrawal request is checked against that balance and recorded in one transaction, so its amount
 * is held from then on and cannot be asked for twice; refusing it gives the hold back. Paying an
 * approved one is the payout machinery's (PoolLedgerStore.createPayout).
 */

export interface Subaccount {
  id: number;
  name: string;
  rebate: number;
  addresses: string[];
  /** what may be withdrawn now: rebates less every withdrawal not refused */
  balance: number;
  /** requested or approved, not paid yet */
  held: number;
  paid: number;
  created_at: number;
  updated_at: number;
}

export type WithdrawalState = "requested" | "approved" | "paid" | "refused";

export interface Withdrawal {
  id: number;
  subaccount_id: number;
  name: string;
  amount: number;
  address: string;
  state: WithdrawalState;
  payout_id: number | null;
  /** the payout's transaction once sent */
  txid: string | null;
  reason: string;
  created_at: number;
  updated_at: number;
}

/** Why a change was refused; the API turns each into its message. */
export type SubaccountRefusal =
  | { kind: "no_subaccount" }
  | { kind: "name_taken" }
  | { kind: "member_elsewhere"; address: string }
  | { kind: "over_balance"; balance: number }
  | { kind: "not_empty"; balance: number; held: number }
  | { kind: "no_withdrawal" }
  | { kind: "not_requested"; state: WithdrawalState };

export class SubaccountError extends Error {
  constructor(readonly refusal: SubaccountRefusal) {
    super(refusal.kind);
  }
}

const SUBACCOUNT_SQL = `
  SELECT s.id, s.name, s.rebate, s.created_at, s.updated_at,
    COALESCE((SELECT SUM(amount) FROM poolnode_credits c WHERE c.subaccount_id = s.id), 0)
      - COALESCE((SELECT SUM(amount) FROM poolnode_withdrawals w WHERE w.subaccount_id = s.id AND w.state <> 'refused'), 0) AS balance,
    COALESCE((SELECT SUM(amount) FROM poolnode_withdrawals w WHERE w.subaccount_id = s.id AND w.state IN ('requested', 'approved')), 0) AS held,
    COALESCE((SELECT SUM(amount) FROM poolnode_withdrawals w WHERE w.subaccount_id = s.id AND w.state = 'paid'), 0) AS paid
  FROM poolnode_subaccounts s WHERE s.deleted_at IS NULL`;

const WITHDRAWAL_SQL = `
  SELECT w.id, w.subaccount_id, s.name, w.amount, w.address, w.state, w.payout_id, p.txid, w.reason, w.created_at, w.updated_at
  FROM poolnode_withdrawals w JOIN poolnode_subaccounts s ON s.id = w.subaccount_id
  LEFT JOIN poolnode_payouts p ON p.id = w.payout_id AND w.state = 'paid'`;

export class PoolSubaccountStore {
  constructor(private readonly db: Database) {}

  list(): Subaccount[] {
    const rows = this.db.query<Omit<Subaccount, "addresses">, []>(`${SUBACCOUNT_SQL} ORDER BY s.id`).all();
    return rows.map((r) => ({ ...r, addresses: this.members(r.id) }));
  }

  get(id: number): Subaccount | null {
    const r = this.db
      .query<Omit<Subaccount, "addresses">, [number]>(`${SUBACCOUNT_SQL} AND s.id = ?`)
      .get(id);
    return r === null ? null : { ...r, addresses: this.members(id) };
  }

  private members(id: number): string[] {
    return this.db
      .query<{ address: string }, [number]>(
        "SELECT address FROM poolnode_subaccount_members WHERE subaccount_id = ? ORDER BY address",
      )
      .all(id)
      .map((m) => m.address);
  }

  /** Creates a sub-account (no id) or replaces one's name, members and rebate (kept when not given). */
  save(
    s: { id?: number | undefined; name: string; addresses: readonly string[]; rebate?: number | undefined },
    now: number,
  ): Subaccount {
    return this.db.transaction(() => {
      const named = this.db
        .query<{ id: number }, [string]>("SELECT id FROM poolnode_subaccounts WHERE name = ?")
        .get(s.name);
      if (named !== null && named.id !== s.id) throw new SubaccountError({ kind: "name_taken" });
      let id = s.id;
      if (id === undefined) {
        id = Number(
          this.db
            .query(
              "INSERT INTO poolnode_subaccounts (name, rebate, created_at, updated_at) VALUES (?, ?, ?, ?)",
            )
            .run(s.name, s.rebate ?? 0, now, now).lastInsertRowid,
        );
      } else if (
        this.db
          .query(
            "UPDATE poolnode_subaccounts SET name = ?, rebate = COALESCE(?, rebate), updated_at = ? WHERE id = ? AND deleted_at IS NULL",
          )
          .run(s.name, s.rebate ?? null, now, id).changes === 0
      )
        throw new SubaccountError({ kind: "no_subaccount" });
      const elsewhere = this.db.query<{ subaccount_id: number }, [string]>(
        "SELECT subaccount_id FROM poolnode_subaccount_members WHERE address = ?",
      );
      for (const address of s.addresses) {
        const owner = elsewhere.get(address);
        if (owner !== null && owner.subaccount_id !== id)
          throw new SubaccountError({ kind: "member_elsewhere", address });
      }
      this.db.query("DELETE FROM poolnode_subaccount_members WHERE subaccount_id = ?").run(id);
      const add = this.db.query(
        "INSERT INTO poolnode_subaccount_members (address, subaccount_id) VALUES (?, ?)",
      );
      for (const address of new Set(s.addresses)) add.run(address, id);
      return this.get(id) as Subaccount;
    })();
  }

  setRebate(id: number, rebate: number, now: number): Subaccount {
    if (
      this.db
        .query(
          "UPDATE poolnode_subaccounts SET rebate = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL",
        )
        .run(rebate, now, id).changes === 0
    )
      throw new SubaccountError({ kind: "no_subaccount" });
    return this.get(id) as Subaccount;
  }

  /**
   * Deletes a sub-account that owes nothing and holds nothing. Its row stays, marked, because its
   * credits and withdrawals must still say whose they were: the withdrawal log shows it as
   * "name (deleted #id)", its addresses are free to join another sub-account and its name to be reused.
   */
  delete(id: number, now: number): Subaccount {
    return this.db.transaction(() => {
      const s = this.get(id);
      if (s === null) throw new SubaccountError({ kind: "no_subaccount" });
      if (s.balance !== 0 || s.held !== 0)
        throw new SubaccountError({ kind: "not_empty", balance: s.balance, held: s.held });
      this.db.query("DELETE FROM poolnode_subaccount_members WHERE subaccount_id = ?").run(id);
      this.db
        .query("UPDATE poolnode_subaccounts SET name = ?, deleted_at = ?, updated_at = ? WHERE id = ?")
        .run(`${s.name} (deleted #${id})`, now, now, id);
      return s;
    })();
  }

  /**
   * Cancels a request not yet decided: it is removed (no payout ever referred to it), so its amount
   * is no longer held. One approved, paid or refused is not cancelled.
   */
  cancelWithdrawal(id: number): Withdrawal {
    return this.db.transaction(() => {
      const w = this.withdrawal(id);
      if (w === null) throw new SubaccountError({ kind: "no_withdrawal" });
      if (w.state !== "requested") throw new SubaccountError({ kind: "not_requested", state: w.state });
      this.db.query("DELETE FROM poolnode_withdrawals WHERE id = ? AND state = 'requested'").run(id);
      return w;
    })();
  }

  /** A request: checked against the balance and recorded in one transaction, which holds the amount. */
  requestWithdrawal(subaccountId: number, amount: number, address: string, now: number): Withdrawal {
    return this.db.transaction(() => {
      const s = this.get(subaccountId);
      if (s === null) throw new SubaccountError({ kind: "no_subaccount" });
      if (amount > s.balance) throw new SubaccountError({ kind: "over_balance", balance: s.balance });
      const id = Number(
        this.db
          .query(
            "INSERT INTO poolnode_withdrawals (subaccount_id, amount, address, state, created_at, updated_at) VALUES (?, ?, ?, 'requested', ?, ?)",
          )
          .run(subaccountId, amount, address, now, now).lastInsertRowid,
      );
      return this.withdrawal(id) as Withdrawal;
    })();
  }

  /** Approved, it goes into the next payout; refused, its amount is no longer held. */
  decide(id: number, verdict: "approved" | "refused", reason: string, now: number): Withdrawal {
    return this.db.transaction(() => {
      const w = this.withdrawal(id);
      if (w === null) throw new SubaccountError({ kind: "no_withdrawal" });
      if (w.state !== "requested") throw new SubaccountError({ kind: "not_requested", state: w.state });
      this.db
        .query("UPDATE poolnode_withdrawals SET state = ?, reason = ?, updated_at = ? WHERE id = ?")
        .run(verdict, reason, now, id);
      return this.withdrawal(id) as Withdrawal;
    })();
  }

  withdrawal(id: number): Withdrawal | null {
    return this.db.query<Withdrawal, [number]>(`${WITHDRAWAL_SQL} WHERE w.id = ?`).get(id);
  }

  /** Newest first; of one sub-account when given. */
  withdrawals(limit: number, subaccountId?: number): Withdrawal[] {
    return subaccountId === undefined
      ? this.db.query<Withdrawal, [number]>(`${WITHDRAWAL_SQL} ORDER BY w.id DESC LIMIT ?`).all(limit)
      : this.db
          .query<Withdrawal, [number, number]>(
            `${WITHDRAWAL_SQL} WHERE w.subaccount_id = ? ORDER BY w.id DESC LIMIT ?`,
          )
          .all(subaccountId, limit);
  }
}
