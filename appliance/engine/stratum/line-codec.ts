/**
 * Splits a byte stream into lines, bounded in length so that a peer cannot make us buffer without
 * limit. One splitter per socket; lines are delivered strictly in order. Only complete lines are
 * decoded (a newline byte never occurs inside a UTF-8 sequence), so one shared decoder serves every
 * socket and an idle connection holds no decoder state.
 *
 * Two kinds: RawLineSplitter hands over each line's exact bytes (the pass-through relay forwards
 * them unchanged); LineSplitter trims the line ending, skips blank lines and decodes, for the
 * families that parse every line. Both are one object per socket (the split is their common base,
 * not a second object the decoding one holds), because every miner has one.
 */

/** Default maximum line: a Bitcoin notify with a long merkle branch stays well below 16 KiB. */
export const MAX_LINE_BYTES = 16 * 1024;

/** Receives the lines of one socket; an object, not closures, so a connection costs one allocation. */
export interface LineSink {
  onLine(line: string): void;
  /** a line exceeded the bound; nothing is delivered afterwards */
  onOverflow(): void;
}

/** Receives each line's bytes, newline included, as a view valid only during the call. */
export interface RawLineSink {
  onRawLine(line: Uint8Array): void;
  /** a line exceeded the bound; nothing is delivered afterwards */
  onOverflow(): void;
}

/** A sink from two functions, for code where allocation per socket does not matter. */
export const lineSink = (onLine: (line: string) => void, onOverflow: () => void): LineSink => ({
  onLine,
  onOverflow,
});

/**
 * Decodes a range of bytes without a view of it: two views per line (the line, then the line
 * without its ending) were a third of the objects a share made (bench/engine/allocations.ts). Bun's
 * Buffer methods take any Uint8Array; invalid UTF-8 becomes U+FFFD, as TextDecoder makes it.
 */
const utf8Range = Buffer.prototype.toString as (
  this: Uint8Array,
  enc: "utf8",
  start: number,
  end: number,
) => string;
const NL = 10;
const CR = 13;

abstract class Splitter<S extends { onOverflow(): void }> {
  private partial: Uint8Array | null = null;
  private overflowed = false;

  constructor(
    private readonly maxLength: number,
    protected readonly sink: S,
  ) {}

  /** one line: `bytes` from `start` to `end` (after the newline), valid only during the call */
  protected abstract emit(bytes: Uint8Array, start: number, end: number): void;

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    let bytes = chunk;
    if (this.partial !== null) {
      const joined = new Uint8Array(this.partial.length + chunk.length);
      joined.set(this.partial, 0);
      joined.set(chunk, this.partial.length);
      bytes = joined;
      this.partial = null;
    }
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(NL, start);
      if (nl < 0) break;
      if (nl - start > this.maxLength) {
        this.overflow();
        return;
      }
      this.emit(bytes, start, nl + 1);
      if (this.overflowed) return;
      start = nl + 1;
    }
    if (start < bytes.length) {
      if (bytes.length - start > this.maxLength) {
        this.overflow();
        return;
      }
      // Copy: the socket may reuse the chunk's memory after this call.
      this.partial = bytes.slice(start);
    }
  }

  private overflow(): void {
    this.overflowed = true;
    this.partial = null;
    this.sink.onOverflow();
  }
}

export class RawLineSplitter extends Splitter<RawLineSink> {
  protected emit(bytes: Uint8Array, start: number, end: number): void {
    this.sink.onRawLine(bytes.subarray(start, end));
  }
}

export class LineSplitter extends Splitter<LineSink> {
  protected emit(bytes: Uint8Array, start: number, end: number): void {
    let last = end - 1;
    if (last > start && bytes[last - 1] === CR) last--;
    if (last > start) this.sink.onLine(this.decode(bytes, start, last));
  }

  protected decode(bytes: Uint8Array, start: number, end: number): string {
    return utf8Range.call(bytes, "utf8", start, end);
  }
}

/** Lines shorter than this are decoded every time: comparing would save little. */
const REPEAT_MIN_BYTES = 256;
/** Long lines remembered per thread, newest replacing oldest: a few pools' current jobs. */
const REPEAT_SLOTS = 8;
const repeatBytes: (Uint8Array | null)[] = new Array(REPEAT_SLOTS).fill(null);
const repeatText: string[] = new Array(REPEAT_SLOTS).fill("");
let repeatNext = 0;
const sameBytes = Buffer.prototype.compare as (
  this: Uint8Array,
  target: Uint8Array,
  targetStart: number,
  targetEnd: number,
) => number;
const copyRange = Uint8Array.prototype.slice as (this: Uint8Array, start: number, end: number) => Uint8Array;

/**
 * The splitter of a pool session. A pool sends each job as the same line to every session, and in
 * Efficient mode every miner has a session of its own: a long line equal to one of the last few
 * is handed over as the string already decoded (one byte comparison instead of a decode and a
 * string per miner and job), which also lets the families' parse caches find it without hashing
 * a new string.
 */
export class PoolLineSplitter extends LineSplitter {
  protected override decode(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length < REPEAT_MIN_BYTES) return utf8Range.call(bytes, "utf8", start, end);
    for (let i = 0; i < REPEAT_SLOTS; i++) {
      const seen = repeatBytes[i];
      if (seen?.length === length && sameBytes.call(seen, bytes, start, end) === 0)
        return repeatText[i] as string;
    }
    const text = utf8Range.call(bytes, "utf8", start, end);
    repeatBytes[repeatNext] = copyRange.call(bytes, start, end);
    repeatText[repeatNext] = text;
    repeatNext = (repeatNext + 1) % REPEAT_SLOTS;
    return text;
  }
}
