/**
 * One timer for the timeouts of every pool session of the thread (connect, "no job in time", the
 * grace of a retiring session), instead of a timer object per session re-armed on every job: in
 * Efficient mode every miner has its own session, and its timer with its arguments was 208 bytes of
 * the miner's memory. A session keeps its deadline in two numbers; a sweep every quarter second
 * expires the sessions whose deadline has passed, so a timeout fires up to 250 ms late — the
 * timeouts are seconds long. The clock is performance.now(): monotonic, whatever the wall clock does.
 */

export interface Expiring {
  /** its place in the list of sessions with a deadline, −1 when it has none */
  deadlineIndex: number;
  /** performance.now() at which it expires */
  deadlineAt: number;
  /** the deadline passed */
  onDeadline(): void;
}

const TICK_MS = 250;

export class Deadlines {
  private readonly items: Expiring[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  /** Expires `item` `ms` from now, replacing the deadline it had. */
  set(item: Expiring, ms: number): void {
    item.deadlineAt = performance.now() + ms;
    if (item.deadlineIndex < 0 || this.items[item.deadlineIndex] !== item) {
      item.deadlineIndex = this.items.length;
      this.items.push(item);
    }
    if (this.timer === null) this.start();
  }

  /**
   * Apart from `set`, which runs on every job of every session: a function holding a closure over
   * `this` gets a scope object on every call, whether or not the closure is made.
   */
  private start(): void {
    this.timer = setInterval(() => this.sweep(), TICK_MS);
  }

  clear(item: Expiring): void {
    const i = item.deadlineIndex;
    if (i < 0 || this.items[i] !== item) return;
    const last = this.items.pop() as Expiring;
    if (last !== item) {
      this.items[i] = last;
      last.deadlineIndex = i;
    }
    item.deadlineIndex = -1;
    if (this.items.length === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * From the end, so that removing the visited item (which moves an already visited one into its
   * place) skips nobody; an expiry that closes other sessions at most makes one be looked at twice.
   */
  private sweep(): void {
    const now = performance.now();
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i];
      if (item === undefined || item.deadlineAt > now) continue;
      this.clear(item);
      item.onDeadline();
    }
  }
}

/** The thread's deadlines (the engine runs on one thread; a worker has its own module instance). */
export const deadlines = new Deadlines();
