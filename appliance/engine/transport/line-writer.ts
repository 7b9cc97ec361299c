/**
 * A bounded write queue over a Bun socket: what the kernel does not take now waits for `drain`,
 * and a peer that stops reading is cut off instead of growing our memory.
 */
/** The part of a socket a writer needs (Bun's TCP and TLS sockets both fit). */
export interface ByteSocket {
  write(data: string | Uint8Array): number;
  end(): void;
}

/** A peer that lets this much pile up is not reading; drop it. */
export const MAX_PENDING_BYTES = 512 * 1024;

export interface LineSink {
  write(line: string): void;
  close(): void;
}

export class LineWriter implements LineSink {
  private pending = "";
  private closed = false;

  constructor(private readonly socket: ByteSocket) {}

  write(line: string): void {
    if (this.closed) return;
    if (this.pending.length > 0) {
      this.pending += line;
      if (this.pending.length > MAX_PENDING_BYTES) this.close();
      return;
    }
    const n = this.socket.write(line);
    if (n < line.length) {
      // Bun reports bytes; stratum lines are ASCII so bytes and characters agree.
      this.pending = line.slice(Math.max(0, n));
    }
  }

  /** Call from the socket's drain handler. */
  drain(): void {
    if (this.pending.length === 0 || this.closed) return;
    const p = this.pending;
    const n = this.socket.write(p);
    this.pending = n < p.length ? p.slice(Math.max(0, n)) : "";
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = "";
    this.socket.end();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
