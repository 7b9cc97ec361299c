/**
 * Where the running pool's accounting lands: accepted shares into the share log, found blocks with
 * their frozen PPLNS window, and the block tracker's verdicts — a block that matures is credited
 * once, an orphan the chain left behind credits nobody. All of it runs after a share's answer or in
 * the tracker's turn, never on the share's own path beyond the log's array push.
 */
import type { PoolLedgerStore } from "../../store/poolnode-ledger.ts";
import { blockStatus, COINBASE_MATURITY, type FoundBlock } from "../pool/block-tracker.ts";
import { ShareLog, type ShareLogOptions } from "./share-log.ts";

/** What the pool reports to its accounting (pool-node.ts calls these). */
export interface PoolAccounting {
  /** an accepted share; returns its id in the log */
  share(worker: string, difficulty: number, height: number): number;
  /** a block the pool submitted, with the coinbase value and the id of the share that found it */
  blockFound(block: FoundBlock, reward: number, shareId: number): void;
  /** the tracker asked the daemon about these blocks; `tipHeight` is the best chain's height */
  blocksChecked(blocks: readonly FoundBlock[], tipHeight: number): void;
  /** blocks found before this start that are still tracked */
  openBlocks(): FoundBlock[];
}

export interface LedgerRules {
  window: number;
  fee: number;
  poolAddress: string;
}

const PRUNE_MS = 60_000;

export class PoolLedger implements PoolAccounting {
  private readonly log: ShareLog;
  private readonly pruneMs: number;
  private pruner: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly store: PoolLedgerStore,
    private readonly rules: () => LedgerRules,
    private readonly report: (message: string) => void,
    opts: ShareLogOptions & { pruneMs?: number } = {},
  ) {
    this.log = new ShareLog(store, opts, (e) => this.report(`share log: ${message(e)}`));
    this.pruneMs = opts.pruneMs ?? PRUNE_MS;
  }

  start(): void {
    // a block that matured while its credit failed, or just before a crash, is credited now
    for (const b of this.store.openBlocks())
      if (b.status === "mature") this.store.creditBlock(b.hash, Date.now());
    this.log.start();
    this.pruner ??= setInterval(() => this.prune(), this.pruneMs);
  }

  stop(): void {
    if (this.pruner !== null) clearInterval(this.pruner);
    this.pruner = null;
    this.log.stop();
  }

  share(worker: string, difficulty: number, height: number): number {
    return this.log.append(worker, difficulty, height, Date.now());
  }

  blockFound(block: FoundBlock, reward: number, shareId: number): void {
    // the window ends at this share: it and every share before it must be on disk first
    this.log.flush();
    const dot = block.worker.indexOf(".");
    this.store.recordBlock(
      {
        hash: block.hash,
        height: block.height,
        found_at: block.foundAt,
        address: dot < 0 ? block.worker : block.worker.slice(0, dot),
        worker: block.worker,
        reward,
        verdict: block.verdict,
        last_share_id: shareId,
      },
      this.rules(),
    );
  }

  blocksChecked(blocks: readonly FoundBlock[], tipHeight: number): void {
    // every block's confirmations at each tip: one transaction (one fsync), not one per block
    this.store.setConfirmations(
      blocks.map((b) => ({ hash: b.hash, status: blockStatus(b), confirmations: b.confirmations })),
    );
    for (const block of blocks) {
      const status = blockStatus(block);
      if (status === "mature") {
        const credits = this.store.creditBlock(block.hash, Date.now());
        if (credits.length > 0) this.report(`block ${block.hash} matured: ${credits.length} credit lines`);
      } else if (status === "orphaned" && tipHeight - block.height > COINBASE_MATURITY) {
        // so far behind the tip that no reorganisation will bring it back: it frees its shares
        this.store.closeOrphan(block.hash, Date.now());
      }
    }
  }

  openBlocks(): FoundBlock[] {
    return this.store.openBlocks().map((b) => ({
      hash: b.hash,
      height: b.height,
      worker: b.worker,
      foundAt: b.found_at,
      verdict: b.verdict,
      confirmations: b.confirmations,
    }));
  }

  prune(): void {
    try {
      this.store.prune(this.rules().window);
    } catch (e) {
      this.report(`share log pruning: ${message(e)}`);
    }
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
