/**
 * Splits a byte stream into lines without decoding or trimming them: the pass-through relay must
 * hand the other side exactly the bytes it was sent (a `\r` before the newline, bytes that are not
 * valid UTF-8, blank lines). Each line is delivered with its newline, as a view that is valid only
 * during the call. Bounded like the codec families' LineSplitter (line-codec.ts), for the same reason.
 */
export interface RawLineSink {
  onRawLine(line: Uint8Array): void;
  /** a line exceeded the bound; nothing is delivered afterwards */
  onOverflow(): void;
}

const NL = 10;

export class RawLineSplitter {
  private partial: Uint8Array | null = null;
  private overflowed = false;

  constructor(
    private readonly maxLength: number,
    private readonly sink: RawLineSink,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    let bytes = chunk;
    if (this.partial !== null) {
      bytes = new Uint8Array(this.partial.length + chunk.length);
      bytes.set(this.partial, 0);
      bytes.set(chunk, this.partial.length);
      this.partial = null;
    }
    let start = 0;
    for (let nl = bytes.indexOf(NL); nl >= 0; nl = bytes.indexOf(NL, start)) {
      if (nl - start > this.maxLength) {
        this.overflow();
        return;
      }
      this.sink.onRawLine(bytes.subarray(start, nl + 1));
      if (this.overflowed) return;
      start = nl + 1;
    }
    if (bytes.length - start > this.maxLength) {
      this.overflow();
      return;
    }
    // Copy: the socket may reuse the chunk's memory after this call.
    if (start < bytes.length) this.partial = bytes.slice(start);
  }

  private overflow(): void {
    this.overflowed = true;
    this.partial = null;
    this.sink.onOverflow();
  }
}
