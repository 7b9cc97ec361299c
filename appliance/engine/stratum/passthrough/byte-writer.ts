/**
 * A bounded byte writer for the relay: what the kernel does not take at once waits for `drain`, in
 * order; a peer that lets MAX_PENDING_BYTES pile up is not reading and is cut off. Unlike LineWriter
 * (transport/line-writer.ts) it takes bytes, not strings, so relayed lines keep their exact bytes.
 */
import { type ByteSocket, MAX_PENDING_BYTES } from "../../transport/line-writer.ts";

export class ByteWriter {
  private backlog: Uint8Array | null = null;
  private closed = false;

  constructor(
    private readonly socket: ByteSocket,
    /** called once when the peer stops reading */
    private readonly onStalled: () => void,
  ) {}

  write(bytes: Uint8Array): void {
    if (this.closed) return;
    if (this.backlog !== null) {
      this.backlog = Buffer.concat([this.backlog, bytes]);
    } else {
      const n = this.socket.write(bytes);
      if (n >= bytes.length) return;
      // Copy: `bytes` may be a view of a chunk the socket reuses.
      this.backlog = bytes.slice(Math.max(0, n));
    }
    if (this.backlog.length > MAX_PENDING_BYTES) this.onStalled();
  }

  /** Call from the socket's drain handler. */
  drain(): void {
    if (this.closed || this.backlog === null) return;
    const b = this.backlog;
    const n = this.socket.write(b);
    this.backlog = n < b.length ? b.subarray(Math.max(0, n)) : null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = null;
    this.socket.end();
  }
}
