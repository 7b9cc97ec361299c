/**
 * A miner's lines, handled strictly in order, with the flood limits every family applies: more than
 * `maxPerSecond` lines in a second, or more than MAX_QUEUED_LINES waiting behind a request that awaits
 * the pool (subscribe, authorize, login), close the connection. A handler that returns a promise
 * holds the lines after it until the promise settles; one that throws closes the connection.
 * Families share this so that the order and the limits cannot drift apart between them.
 */

/** Lines queued while an earlier one waits for the pool. */
export const MAX_QUEUED_LINES = 64;

export interface OrderedLineHandler {
  /** handles one line; a returned promise holds the next lines until it settles */
  handle(line: string): Promise<void> | undefined;
  close(reason: string): void;
  readonly isClosed: boolean;
}

export class OrderedLines {
  private windowStart = 0;
  private windowLines = 0;
  private queue: string[] | null = null;
  private busy = false;

  constructor(
    private readonly handler: OrderedLineHandler,
    private readonly maxPerSecond: number,
  ) {}

  push(line: string): void {
    if (this.handler.isClosed) return;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowLines = 0;
    }
    if (++this.windowLines > this.maxPerSecond) {
      this.handler.close("flood: too many lines per second");
      return;
    }
    if (this.busy) {
      this.queue ??= [];
      if (this.queue.length >= MAX_QUEUED_LINES) {
        this.handler.close("flood: too many lines while waiting for the pool");
        return;
      }
      this.queue.push(line);
      return;
    }
    const pending = this.handler.handle(line);
    if (pending !== undefined) this.await(pending);
  }

  /** Drops the lines still queued (the connection closed). */
  clear(): void {
    this.queue = null;
  }

  private await(p: Promise<void>): void {
    this.busy = true;
    p.catch((e: unknown) => this.handler.close(`internal error: ${String(e)}`)).finally(() => {
      this.busy = false;
      const q = this.queue;
      while (!this.busy && q !== null && q.length > 0 && !this.handler.isClosed) {
        const next = this.handler.handle(q.shift() as string);
        if (next !== undefined) this.await(next);
      }
    });
  }
}
