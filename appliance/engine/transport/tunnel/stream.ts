/**
 * One miner stream inside a tunnel and its flow control (docs/rms-tunnel.md). Each direction of a
 * stream has a window: the sender may have at most `window` bytes that the receiver has not taken;
 * the receiver grants them back with credit frames as its local end (the miner's socket, the port's
 * stratum) takes them. A miner whose socket does not drain therefore holds up its own stream only;
 * the tunnel keeps being read, and every other stream keeps flowing.
 */
import { TunnelError } from "./frames.ts";
import { LineDecoder, LineEncoder, type StreamLines } from "./line-codec.ts";

/** The local end of a stream. */
export interface StreamSink {
  /** Bytes from the peer; returns how many the local end took now (it reports the rest with `taken`). */
  deliver(bytes: Uint8Array): number;
  /** The peer granted credit: what the local end held back may be written again. */
  writable(): void;
  /** The peer closed the stream. */
  closed(): void;
}

export class Stream {
  /** bytes this end may still send */
  private sendCredit: number;
  /** bytes received and not yet granted back */
  private outstanding = 0;
  /** bytes taken by the local end since the last grant */
  private takenSinceGrant = 0;
  /** a write was cut short by the window: tell the sink when credit comes */
  private blocked = false;
  private templates: StreamLines | null = null;

  constructor(
    readonly id: number,
    readonly sink: StreamSink,
    /** the peer's window: what it takes before granting any back */
    peerWindow: number,
    /** this end's window */
    private readonly window: number,
  ) {
    this.sendCredit = peerWindow;
  }

  /** Its compact lines' templates each way (RMS3 from version 4), made when first used. */
  get lines(): StreamLines {
    this.templates ??= { out: new LineEncoder(), in: new LineDecoder() };
    return this.templates;
  }

  /** How much of `n` bytes may be sent now (and counts them as sent). */
  take(n: number): number {
    const k = Math.min(n, this.sendCredit);
    this.sendCredit -= k;
    if (k < n) this.blocked = true;
    return k;
  }

  /** The peer granted `n` bytes more. */
  granted(n: number): void {
    this.sendCredit += n;
    if (this.blocked && this.sendCredit > 0) {
      this.blocked = false;
      this.sink.writable();
    }
  }

  /** Bytes arrived from the peer; a peer that overruns the window breaks the protocol. */
  received(n: number): void {
    this.outstanding += n;
    if (this.outstanding > this.window) throw new TunnelError(`stream ${this.id} overran its window`);
  }

  /** The local end took `n` bytes; returns the credit to grant now (0: wait for more). */
  taken(n: number): number {
    this.takenSinceGrant += n;
    // granting a quarter window at a time keeps the sender busy with few credit frames
    if (this.takenSinceGrant < this.window / 4) return 0;
    const grant = this.takenSinceGrant;
    this.outstanding -= grant;
    this.takenSinceGrant = 0;
    return grant;
  }
}
