/**
 * A batched, bounded write queue over a Bun socket. Lines written during one turn of the event loop
 * go out in one write (a shared upstream carries the shares of many miners: one syscall instead of
 * dozens), except a joined line written when nothing waits, which goes out at once; what the kernel
 * does not take waits for `drain`; a peer that stops reading is cut off instead of growing our memory.
 */

import type { JoinedLine } from "./joined-line.ts";

/**
 * The part of a socket a writer needs (Bun's TCP and TLS sockets both fit). `write` sends or copies
 * what it takes before it returns: the caller may reuse the bytes afterwards.
 */
export interface ByteSocket {
  write(data: string | Uint8Array): number;
  end(): void;
}

/** A miner that lets this much pile up is not reading; drop it. */
export const MAX_PENDING_BYTES = 512 * 1024;
/**
 * A pool session carries up to 256 miners' shares: an Equihash share is a 2.8 KB line, so one loop
 * turn in which they all submit is 700 KB that a healthy pool is about to read. The bound for a pool
 * is the same test (not reading) at the scale of the miners behind it.
 */
export const POOL_MAX_PENDING_BYTES = 16 * MAX_PENDING_BYTES;

export interface LineSink {
  write(line: string): void;
  close(): void;
}

// One flush for every writer with something to send, at the end of the loop turn.
const dirty: LineWriter[] = [];
let flushScheduled = false;
function flushAll(): void {
  flushScheduled = false;
  const list = dirty.splice(0);
  for (const w of list) w.flush();
}

export class LineWriter implements LineSink {
  private batch = "";
  /** bytes the kernel has not taken yet */
  private backlog: Uint8Array | null = null;
  private closed = false;

  constructor(
    private readonly socket: ByteSocket,
    private readonly maxPending = MAX_PENDING_BYTES,
  ) {}

  write(line: string): void {
    if (this.closed) return;
    if (this.batch.length === 0) {
      dirty.push(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    }
    this.batch += line;
    if (this.batch.length > this.maxPending) this.close();
  }

  /**
   * Writes a joined line (joined-line.ts). When nothing waits it goes out now from the joined bytes,
   * with no string made for it; otherwise it joins the batch behind what waits.
   */
  writeJoined(line: JoinedLine): void {
    if (this.closed) return;
    if (this.batch.length > 0 || this.backlog !== null) {
      this.write(line.toString());
      return;
    }
    const bytes = line.bytes();
    const n = this.socket.write(bytes);
    // a copy: the join buffer is the next line's (a Buffer's `slice` would be a view of it)
    if (n < bytes.length) this.queue(new Uint8Array(bytes.subarray(Math.max(0, n))));
  }

  /** Sends the batch (called by the shared flush). */
  flush(): void {
    if (this.closed || this.batch.length === 0) return;
    const data = this.batch;
    this.batch = "";
    if (this.backlog !== null) {
      this.queue(Buffer.from(data));
      return;
    }
    const n = this.socket.write(data);
    // Bun reports bytes written; worker names may make bytes and characters differ.
    if (n < data.length || n < Buffer.byteLength(data))
      this.queue(Buffer.from(data).subarray(Math.max(0, n)));
  }

  private queue(bytes: Uint8Array): void {
    if (this.backlog === null) this.backlog = bytes;
    else this.backlog = Buffer.concat([this.backlog, bytes]);
    if (this.backlog.length > this.maxPending) this.close();
  }

  /** Call from the socket's drain handler. */
  drain(): void {
    if (this.closed || this.backlog === null) return;
    const b = this.backlog;
    const n = this.socket.write(b);
    this.backlog = n < b.length ? b.subarray(Math.max(0, n)) : null;
  }

  /** Sends what is batched (best effort) and ends the socket. */
  close(): void {
    if (this.closed) return;
    if (this.backlog === null && this.batch.length > 0 && this.batch.length <= this.maxPending)
      this.socket.write(this.batch);
    this.closed = true;
    this.batch = "";
    this.backlog = null;
    this.socket.end();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
