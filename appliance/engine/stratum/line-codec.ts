/**
 * Splits a byte stream into lines, bounded in length so that a peer cannot make us buffer without
 * limit. One splitter per socket; lines are delivered strictly in order.
 */

/** Default maximum line: a Bitcoin notify with a long merkle branch stays well below 16 KiB. */
export const MAX_LINE_BYTES = 16 * 1024;

export type LineSink = (line: string) => void;

export class LineSplitter {
  private readonly decoder = new TextDecoder();
  private partial = "";

  constructor(
    private readonly maxLength: number,
    private readonly onLine: LineSink,
    /** Called once when a line exceeds the bound; the splitter stops delivering afterwards. */
    private readonly onOverflow: () => void,
  ) {}

  private overflowed = false;

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      if (nl - start > this.maxLength) {
        this.overflow();
        return;
      }
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      if (end > start) this.onLine(text.slice(start, end));
      if (this.overflowed) return;
      start = nl + 1;
    }
    this.partial = start === 0 ? text : text.slice(start);
    if (this.partial.length > this.maxLength) this.overflow();
  }

  private overflow(): void {
    this.overflowed = true;
    this.partial = "";
    this.onOverflow();
  }
}
