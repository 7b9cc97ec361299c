/**
 * Lines laid out as bytes from parts that many lines share. A pool job goes to every miner under the
 * miner's own job id, and in Efficient mode every miner has a pool session of its own: joined as a
 * string, each miner's line was a copy of the job's text (hundreds of bytes) made and dropped on
 * every job. Joined here, it is written from one buffer per thread (docs/benchmarks.md, "Lines
 * joined as bytes").
 */

/** Text that many lines share (a pool job's part of a notify), with its bytes made once. */
export class LinePart {
  readonly bytes: Uint8Array;

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text);
  }
}

/** The line being joined: one per thread, valid until the next `joinedLine()`. */
export class JoinedLine {
  private buf = Buffer.allocUnsafe(16 * 1024);
  private end = 0;

  start(): this {
    this.end = 0;
    return this;
  }

  part(p: LinePart): this {
    this.room(p.bytes.length);
    this.buf.set(p.bytes, this.end);
    this.end += p.bytes.length;
    return this;
  }

  /** a short text of this line alone (a job id, an extranonce), written as UTF-8 */
  text(s: string): this {
    this.room(3 * s.length);
    this.end += this.buf.write(s, this.end);
    return this;
  }

  get length(): number {
    return this.end;
  }

  /** a view of the line, valid until the next line is joined */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.end);
  }

  toString(): string {
    return this.buf.toString("utf8", 0, this.end);
  }

  private room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.end + n));
    this.buf.copy(bigger, 0, 0, this.end);
    this.buf = bigger;
  }
}

const line = new JoinedLine();

/** Starts the thread's line anew. */
export const joinedLine = (): JoinedLine => line.start();
