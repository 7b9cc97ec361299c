/**
 * A byte writer for a stream that is encoded as it is written (KENC frames): an encoded chunk
 * cannot be encoded again, so what the kernel does not take waits here for drain, bounded like a
 * miner's line queue — a peer that does not read is cut off instead of growing our memory.
 */
import { type ByteSocket, MAX_PENDING_BYTES } from "./line-writer.ts";

export class QueuedWriter implements ByteSocket {
  private backlog: Uint8Array | null = null;

  constructor(
    private readonly socket: ByteSocket,
    /** plaintext → the bytes that go on the wire */
    private readonly encode: (plain: Uint8Array) => Uint8Array,
    /** a link that carries many miners (the RMS tunnel) may hold more than one miner's share */
    private readonly maxPending = MAX_PENDING_BYTES,
  ) {}

  /** Takes every byte (the caller has nothing to keep) and returns how many. */
  write(data: string | Uint8Array): number {
    const plain = typeof data === "string" ? Buffer.from(data) : data;
    if (plain.length === 0) return 0;
    const wire = this.encode(plain);
    if (this.backlog !== null) {
      this.backlog = Buffer.concat([this.backlog, wire]);
      if (this.backlog.length > this.maxPending) this.end();
    } else {
      const n = Math.max(0, this.socket.write(wire));
      if (n < wire.length) this.backlog = wire.subarray(n);
    }
    return plain.length;
  }

  /** Writes what waits; true when nothing does. Call from the socket's drain. */
  flush(): boolean {
    if (this.backlog === null) return true;
    const n = Math.max(0, this.socket.write(this.backlog));
    this.backlog = n < this.backlog.length ? this.backlog.subarray(n) : null;
    return this.backlog === null;
  }

  end(): void {
    this.backlog = null;
    this.socket.end();
  }
}
