/**
 * Where the running pool's accounting lands: accepted shares into the share log, found blocks with
 * their frozen PPLNS window, and the block tracker's verdicts — a block that matures is credited
 * once, an orphan the chain left behind credits nobody. All of it runs after a share's answer or in
 * the tracker's turn, never on the share's own path beyond the log's array push; the one sum over a
 * window, a maturing block's, runs in a worker thread, so that only the credit's short write is left
 * on the pool's thread.
 */
import type { PoolLedgerStore, WindowWork } from "../../store/poolnode-ledger.ts";
import { POOL_WINDOW_WORKER, ResidentWorker, runInWorker } from "../../workers.ts";
import { blockStatus, COINBASE_MATURITY, type FoundBlock } from "../pool/block-tracker.ts";
import type { Credit } from "./pplns.ts";
import { ShareLog, type ShareLogOptions } from "./share-log.ts";
import type { WindowJob } from "./window-worker.ts";

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
/**
 * Shares deleted per turn of the event loop (about 3.5 ms here): the pool's shares are answered on
 * this thread, and the first prune after a long gap (300,000 shares) held them 210 ms at once.
 */
export const PRUNE_SLICE = 5_000;
/** a window of millions of shares sums in seconds; past this the worker is stopped and retried later */
const WINDOW_SUM_MS = 60_000;

export class PoolLedger implements PoolAccounting {
  private readonly log: ShareLog;
  private readonly pruneMs: number;
  private pruner: ReturnType<typeof setInterval> | null = null;
  private pruneNext: ReturnType<typeof setImmediate> | null = null;
  /** credits under way, by block: a tip seen meanwhile does not start a second, and stop waits */
  private readonly crediting = new Map<string, Promise<Credit[]>>();

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
    for (const b of this.store.openBlocks()) if (b.status === "mature") this.creditSoon(b.hash);
    this.log.start();
    this.pruner ??= setInterval(() => this.prune(), this.pruneMs);
  }

  /** Writes the buffered shares and waits for credits under way (their write must not outlive the store). */
  async stop(): Promise<void> {
    if (this.pruner !== null) clearInterval(this.pruner);
    this.pruner = null;
    if (this.pruneNext !== null) clearImmediate(this.pruneNext);
    this.pruneNext = null;
    this.log.stop();
    await Promise.allSettled(this.crediting.values());
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
      if (status === "mature") this.creditSoon(block.hash);
      else if (status === "orphaned" && tipHeight - block.height > COINBASE_MATURITY) {
        // so far behind the tip that no reorganisation will bring it back: it frees its shares
        this.store.closeOrphan(block.hash, Date.now());
      }
    }
  }

  /**
   * Credits a matured block once: its window summed in a worker on its own connection (inline when
   * the store is in memory, where no other connection sees it), then the credits written here in one
   * transaction. Resolves with the credits, none when it was credited already or is under way.
   */
  credit(hash: string): Promise<Credit[]> {
    if (this.crediting.has(hash)) return Promise.resolve([]);
    const round = this.store.roundToCredit(hash);
    if (round === null) return Promise.resolve([]);
    const file = this.store.file;
    const credited = (
      file === null
        ? Promise.resolve(undefined)
        : sumInWorker({ dbFile: file, lastShareId: round.last_share_id, window: round.window })
    )
      .then((work) => this.store.creditBlock(hash, Date.now(), work))
      .finally(() => this.crediting.delete(hash));
    this.crediting.set(hash, credited);
    return credited;
  }

  private creditSoon(hash: string): void {
    this.credit(hash).then(
      (credits) => {
        if (credits.length > 0) this.report(`block ${hash} matured: ${credits.length} credit lines`);
      },
      // the next tip, or the next start, tries again
      (e: unknown) => this.report(`block ${hash} matured, its credit failed: ${message(e)}`),
    );
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

  /** Prunes the share log a slice at a time, the next slice at the next turn while there is more. */
  prune(): void {
    this.pruneNext = null;
    try {
      const n = this.store.prune(this.rules().window, PRUNE_SLICE);
      if (n >= PRUNE_SLICE && this.pruner !== null && this.pruneNext === null)
        this.pruneNext = setImmediate(() => this.prune());
    } catch (e) {
      this.report(`share log pruning: ${message(e)}`);
    }
  }
}

const sumInWorker = (job: WindowJob) =>
  runInWorker<WindowJob, WindowWork[]>(POOL_WINDOW_WORKER, job, WINDOW_SUM_MS);

/**
 * address/info asks often and for little: one resident worker (a fresh one per lookup held the
 * pool's thread ~13 ms starting it), at most 16 lookups waiting; more are refused (WorkerBusy).
 */
const addressWindows = new ResidentWorker<WindowJob, WindowWork[]>(POOL_WINDOW_WORKER, 16);

/**
 * One address's work and shares in the window the next block would take (address/info), summed
 * off the pool's thread like a block's credit (inline when the store is in memory).
 */
export async function addressWindow(
  store: PoolLedgerStore,
  address: string,
  window: number,
): Promise<{ work: number; shares: number }> {
  const lastShareId = store.tip().id;
  const file = store.file;
  const [w] =
    file === null
      ? store.windowWork(lastShareId, window, address).work
      : await addressWindows.run({ dbFile: file, lastShareId, window, address });
  return { work: w?.work ?? 0, shares: w?.shares ?? 0 };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
