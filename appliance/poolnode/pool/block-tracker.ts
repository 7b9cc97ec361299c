/**
 * The blocks the pool submitted and where each stands: refused by the daemon, waiting, orphaned
 * (no longer on the best chain: getblock's confirmations −1), immature, or mature once its coinbase
 * may be spent. Only mature blocks are credited (PPLNS, accounting/ledger.ts).
 */
import type { DaemonCalls } from "../daemon/calls.ts";

/** Both Bitcoin and Litecoin: a coinbase is spendable after 100 confirmations. */
export const COINBASE_MATURITY = 100;

export interface FoundBlock {
  hash: string;
  height: number;
  worker: string;
  foundAt: number;
  /** submitblock's answer: null accepted, otherwise the daemon's reason or the transport error */
  verdict: string | null;
  /** from getblock; null until asked */
  confirmations: number | null;
}

export type BlockStatus = "rejected" | "submitted" | "orphaned" | "immature" | "mature";

export function blockStatus(b: FoundBlock): BlockStatus {
  if (b.verdict !== null) return "rejected";
  if (b.confirmations === null) return "submitted";
  if (b.confirmations < 0) return "orphaned";
  return b.confirmations >= COINBASE_MATURITY ? "mature" : "immature";
}

export class BlockTracker {
  readonly blocks: FoundBlock[] = [];

  add(block: FoundBlock): void {
    this.blocks.push(block);
  }

  /** Asks the daemon for the confirmations of every accepted block that is not yet mature; returns those. */
  async refresh(daemon: DaemonCalls): Promise<FoundBlock[]> {
    const asked: FoundBlock[] = [];
    for (const b of this.blocks) {
      const s = blockStatus(b);
      if (s === "rejected" || s === "mature") continue;
      b.confirmations = (await daemon.getBlock(b.hash)).confirmations;
      asked.push(b);
    }
    return asked;
  }
}
