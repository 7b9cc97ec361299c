/**
 * Keeps the newest block template by polling getblocktemplate at a short interval (docs/pool-node.md:
 * one code path for every daemon, no request held open for minutes). A new previous block is reported
 * at once as clean work; a changed transaction set only every `refreshMs`, since each new job costs
 * every miner a notify and the fee gain of a few more transactions is small.
 */
import type { BlockTemplate, DaemonCalls } from "./calls.ts";

export interface TemplatePollerOptions {
  rules: readonly string[];
  pollMs?: number;
  refreshMs?: number;
}

export interface TemplateListener {
  onTemplate(template: BlockTemplate, clean: boolean): void;
  /** a failed poll; polling goes on */
  onError(error: unknown): void;
}

export class TemplatePoller {
  private current: BlockTemplate | null = null;
  private sentAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly daemon: DaemonCalls,
    private readonly listener: TemplateListener,
    private readonly opts: TemplatePollerOptions,
  ) {}

  get template(): BlockTemplate | null {
    return this.current;
  }

  start(): void {
    this.running = true;
    void this.poll();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Polls now (after a block was submitted the tip has moved; waiting for the timer loses work). */
  async refresh(): Promise<void> {
    // a poll already under way may have asked before the tip moved
    await this.inFlight;
    return this.poll();
  }

  private poll(): Promise<void> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = null;
      if (this.running) {
        if (this.timer !== null) clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.poll(), this.opts.pollMs ?? 1000);
      }
    });
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    let t: BlockTemplate;
    try {
      t = await this.daemon.getBlockTemplate(this.opts.rules);
    } catch (e) {
      this.listener.onError(e);
      return;
    }
    if (!this.running) return;
    const prev = this.current;
    const clean = prev === null || prev.previousblockhash !== t.previousblockhash;
    const due = Date.now() - this.sentAt >= (this.opts.refreshMs ?? 30_000);
    if (!clean && !(due && transactionsChanged(prev, t))) return;
    this.current = t;
    this.sentAt = Date.now();
    this.listener.onTemplate(t, clean);
  }
}

function transactionsChanged(a: BlockTemplate, b: BlockTemplate): boolean {
  if (a.transactions.length !== b.transactions.length) return true;
  return a.transactions.some((tx, i) => tx.txid !== b.transactions[i]?.txid);
}
