/**
 * Payouts that are never paid twice across a crash (docs/pool-node.md "Payouts"): (1) a pending payout
 * and the debits of its balances in one transaction, under a comment no other wallet transaction has;
 * (2) sendmany with that comment; (3) the txid recorded. A payout still pending when a cycle starts —
 * the process died between (1) and (3), or the daemon's answer was lost — is looked up in the wallet by
 * its comment: found, its txid is recorded; not found, the debits are given back.
 */
import { randomUUID } from "node:crypto";
import type { Payout, PoolLedgerStore } from "../../store/poolnode-ledger.ts";
import { coinsOf } from "../amounts.ts";
import type { DaemonCalls } from "../daemon/calls.ts";
import { DaemonRpcError, RpcCode } from "../daemon/rpc-client.ts";

export interface PayoutRules {
  /** base units: balances at or above it are paid */
  threshold: number;
}

export class Payouts {
  constructor(
    private readonly store: PoolLedgerStore,
    private readonly daemon: DaemonCalls,
    private readonly rules: () => PayoutRules,
    private readonly report: (message: string) => void,
  ) {}

  /** Reconciles what a previous run left pending, notes confirmations, then pays who is due. */
  async cycle(): Promise<void> {
    await this.reconcile();
    await this.confirm();
    await this.pay();
  }

  async reconcile(): Promise<void> {
    for (const p of this.store.payoutsIn("pending")) {
      const found = (await this.walletSince(p.since_block)).find(
        (e) => e.category === "send" && e.comment === p.comment,
      );
      if (found !== undefined) {
        this.store.markSent(p.id, found.txid, Date.now());
        this.report(`payout ${p.id} found in the wallet: ${found.txid}`);
      } else {
        this.store.undoPayout(p.id, "not in the wallet at reconciliation: never sent", Date.now());
        this.report(`payout ${p.id} was never sent: its balances are given back`);
      }
    }
  }

  private async walletSince(blockHash: string) {
    try {
      return await this.daemon.listSinceBlock(blockHash);
    } catch (e) {
      // the block is unknown to this daemon (a wiped chain): every wallet transaction, then
      if (e instanceof DaemonRpcError && e.code === RpcCode.INVALID_ADDRESS_OR_KEY)
        return this.daemon.listSinceBlock("");
      throw e;
    }
  }

  private async confirm(): Promise<void> {
    for (const p of this.store.payoutsIn("sent")) {
      if ((await this.daemon.getTransactionConfirmations(p.txid as string)) >= 1)
        this.store.markConfirmed(p.id, Date.now());
    }
  }

  /**
   * The balances and the approved withdrawals in one sendmany; when the wallet refuses one that held
   * withdrawals (an amount beyond what it can spend now, say), the balances go again alone, so that a
   * withdrawal the wallet will not pay never holds up the miners' payouts. The withdrawals stay
   * approved, with the wallet's reason, for the next cycle.
   */
  private async pay(): Promise<void> {
    const refused = await this.send(true);
    if (
      refused?.items.some((i) => i.withdrawal_id !== null) &&
      refused.items.some((i) => i.withdrawal_id === null)
    )
      await this.send(false);
  }

  /** One payout: what it refused, or null when it was sent, is in doubt, or nobody was due. */
  private async send(withdrawals: boolean): Promise<Payout | null> {
    const since = await this.daemon.getBestBlockHash();
    const p = this.store.createPayout(
      this.rules().threshold,
      `pithead payout ${randomUUID()}`,
      since,
      Date.now(),
      withdrawals,
    );
    if (p === null) return null;
    // sendmany takes each address once: a withdrawal to an address also paid as a miner adds to its line
    const units = new Map<string, number>();
    for (const i of p.items) units.set(i.address, (units.get(i.address) ?? 0) + i.amount);
    const amounts = Object.fromEntries([...units].map(([address, amount]) => [address, coinsOf(amount)]));
    let txid: string;
    try {
      txid = await this.daemon.sendMany(amounts, p.comment);
    } catch (e) {
      // the daemon answered with an error: it did not send, so the debits go back now; without an
      // answer it may have sent, and the next cycle's reconciliation decides
      if (e instanceof DaemonRpcError && e.code !== null) {
        this.store.undoPayout(p.id, e.message, Date.now());
        this.report(`payout ${p.id} refused by the wallet: ${e.message}`);
        return p;
      }
      this.report(`payout ${p.id}: no answer to sendmany, reconciled at the next cycle`);
      return null;
    }
    this.store.markSent(p.id, txid, Date.now());
    this.report(`payout ${p.id}: ${p.items.length} addresses, txid ${txid}`);
    return null;
  }
}
