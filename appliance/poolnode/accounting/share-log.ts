/**
 * The share log, kept off the share path: a share is numbered and buffered in memory (an array push),
 * and the buffer goes to SQLite in one transaction each second, or as soon as it holds a batch's worth
 * — never one write per share (design.md: nothing on a share's path touches SQLite). A kill -9 loses
 * at most the last second of shares; a found block flushes first, so its window is always on disk.
 */
import type { PoolLedgerStore, ShareRecord } from "../../store/poolnode-ledger.ts";

export interface ShareLogOptions {
  flushMs?: number;
  /** a buffer this full is written at the next turn of the event loop rather than at the timer */
  batch?: number;
}

const FLUSH_MS = 1000;
const BATCH = 5000;

export class ShareLog {
  private buffer: ShareRecord[] = [];
  private lastId: number;
  private cumWork: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private soon: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly store: PoolLedgerStore,
    private readonly opts: ShareLogOptions = {},
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    const tip = store.tip();
    this.lastId = tip.id;
    this.cumWork = tip.cumWork;
  }

  start(): void {
    this.timer ??= setInterval(() => this.flush(), this.opts.flushMs ?? FLUSH_MS);
  }

  /** Stops the timer and writes what is buffered. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  /** Numbers and buffers one accepted share; returns its id. */
  append(worker: string, difficulty: number, height: number, at: number): number {
    const dot = worker.indexOf(".");
    this.cumWork += difficulty;
    const id = ++this.lastId;
    this.buffer.push({
      id,
      at,
      address: dot < 0 ? worker : worker.slice(0, dot),
      worker,
      difficulty,
      cumWork: this.cumWork,
      height,
    });
    if (this.buffer.length >= (this.opts.batch ?? BATCH) && this.soon === null)
      this.soon = setImmediate(() => this.flush());
    return id;
  }

  get buffered(): number {
    return this.buffer.length;
  }

  flush(): void {
    if (this.soon !== null) clearImmediate(this.soon);
    this.soon = null;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    try {
      this.store.appendShares(batch);
    } catch (e) {
      // kept for the next flush (a locked or full disk may pass); ids stay in order
      this.buffer = batch.concat(this.buffer);
      this.onError(e);
    }
  }
}
