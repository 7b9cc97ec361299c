/**
 * The intake of one miner's socket, shared by the families whose sessions wait for the pool before
 * answering some requests (a login, a subscribe): lines are bounded (LineSplitter), counted against
 * the flood limit, and handled strictly in order, those that arrive while an earlier one waits for
 * the pool queued behind it (a bounded queue: a miner cannot make us buffer without limit).
 */
import { LineSplitter, MAX_LINE_BYTES } from "./line-codec.ts";

/** Lines queued while an earlier one waits for the pool. */
export const MAX_QUEUED_LINES = 64;

/** The session behind an intake. */
export interface IntakeOwner {
  handleLine(line: string): void;
  /** a request waits for the pool: later lines queue until the owner calls the intake's `resume` */
  readonly isHolding: boolean;
  close(reason: string): void;
  readonly isClosed: boolean;
}

export class MinerIntake {
  private readonly splitter: LineSplitter;
  private windowStart = 0;
  private windowLines = 0;
  private queue: string[] | null = null;

  constructor(
    private readonly owner: IntakeOwner,
    private readonly floodLinesPerSecond: number,
  ) {
    this.splitter = new LineSplitter(MAX_LINE_BYTES, this);
  }

  push(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  /** Forgets queued lines (the session closed). */
  clear(): void {
    this.queue = null;
  }

  onOverflow(): void {
    this.owner.close("line too long");
  }

  onLine(line: string): void {
    if (this.owner.isClosed) return;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowLines = 0;
    }
    if (++this.windowLines > this.floodLinesPerSecond) {
      this.owner.close("flood: too many lines per second");
      return;
    }
    if (this.owner.isHolding) {
      this.queue ??= [];
      if (this.queue.length >= MAX_QUEUED_LINES) {
        this.owner.close("flood: too many lines while waiting for the pool");
        return;
      }
      this.queue.push(line);
      return;
    }
    this.owner.handleLine(line);
  }

  /** The held request was answered: the lines that came meanwhile are handled in order. */
  resume(): void {
    const q = this.queue;
    while (q !== null && q.length > 0 && !this.owner.isHolding && !this.owner.isClosed)
      this.owner.handleLine(q.shift() as string);
    if (this.queue?.length === 0) this.queue = null;
  }
}
