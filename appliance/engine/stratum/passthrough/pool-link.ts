/**
 * PoolLink: one miner's session to the pool, as bytes. It connects (TCP or TLS), holds what the
 * miner sends before the connection is up (bounded), splits the pool's bytes into lines for the
 * relay and says why it ended. A pool that sends nothing for `silentMs` counts as down, as a pool
 * that sends no job does in the codec families.
 */
import type { Socket, SocketHandler } from "bun";
import { deadlines, type Expiring } from "../../deadlines.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import { MAX_PENDING_BYTES } from "../../transport/line-writer.ts";
import { type RawLineSink, RawLineSplitter } from "../line-codec.ts";
import { ByteWriter } from "./byte-writer.ts";

/**
 * A pool line may be far longer than a miner's (a job with a large header or template); the bound
 * only stops a broken pool from growing our memory.
 */
export const MAX_POOL_LINE_BYTES = 256 * 1024;

export interface PoolLinkOwner {
  onPoolLine(line: Uint8Array): void;
  /** `healthy`: the pool had sent at least one line and did not fall silent */
  onPoolClosed(reason: string, healthy: boolean): void;
}

export interface PoolLinkTiming {
  connectTimeoutMs: number;
  silentMs: number;
}

const SILENT = "no answer from pool in time";

const HANDLERS: SocketHandler<PoolLink> = {
  // Bun drops TLS writes made before the handshake completes.
  handshake: (s) => s.data.opened(s),
  data: (s, chunk) => s.data.splitter.push(chunk),
  drain: (s) => s.data.drained(),
  close: (s) => s.data.close("closed by pool"),
  error: (s, e) => s.data.close(`socket error: ${e.message}`),
  connectError: (s, e) => s.data.close(`connect failed: ${e.message}`),
};

export class PoolLink implements RawLineSink, Expiring {
  readonly splitter = new RawLineSplitter(MAX_POOL_LINE_BYTES, this);
  private writer: ByteWriter | null = null;
  private early: Uint8Array[] | null = [];
  private earlyBytes = 0;
  private lines = 0;
  private closed = false;
  /**
   * The connect timeout, then the silence timeout re-armed on every pool line: in the thread's
   * sweep (deadlines.ts), where re-arming writes a number instead of making a timer per line.
   */
  deadlineIndex = -1;
  deadlineAt = 0;

  constructor(
    readonly endpoint: Endpoint,
    private readonly timing: PoolLinkTiming,
    private readonly owner: PoolLinkOwner,
  ) {}

  get label(): string {
    return endpointText(this.endpoint);
  }

  get isOpen(): boolean {
    return this.writer !== null && !this.closed;
  }

  start(): void {
    deadlines.set(this, this.timing.connectTimeoutMs);
    Bun.connect<PoolLink>({
      hostname: this.endpoint.host,
      port: this.endpoint.port,
      // Pools commonly use self-signed certificates; the session is still encrypted.
      ...(this.endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      data: this,
      socket: HANDLERS,
    }).then(
      (socket) => {
        if (!this.endpoint.tls) this.opened(socket);
      },
      (e: Error) => this.close(`connect failed: ${e.message}`),
    );
  }

  opened(socket: Socket<PoolLink>): void {
    if (this.closed) {
      socket.end();
      return;
    }
    if (this.writer !== null) return;
    this.writer = new ByteWriter(socket, () => this.close("pool is not reading"));
    deadlines.set(this, this.timing.silentMs);
    for (const b of this.early ?? []) this.writer.write(b);
    this.early = null;
  }

  drained(): void {
    this.writer?.drain();
  }

  send(bytes: Uint8Array): void {
    if (this.closed) return;
    if (this.writer !== null) {
      this.writer.write(bytes);
      return;
    }
    this.earlyBytes += bytes.length;
    if (this.earlyBytes > MAX_PENDING_BYTES) {
      this.close("miner sent too much before the pool answered");
      return;
    }
    this.early?.push(bytes.slice());
  }

  onRawLine(line: Uint8Array): void {
    if (this.closed) return;
    this.lines++;
    deadlines.set(this, this.timing.silentMs);
    this.owner.onPoolLine(line);
  }

  onOverflow(): void {
    this.close("line too long from pool");
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    deadlines.clear(this);
    this.early = null;
    this.writer?.close();
    this.owner.onPoolClosed(reason, this.lines > 0 && reason !== SILENT);
  }

  onDeadline(): void {
    this.close(this.writer === null ? "connect timeout" : SILENT);
  }
}
