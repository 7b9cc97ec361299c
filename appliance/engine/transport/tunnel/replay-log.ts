/**
 * The sender's side of resume (docs/rms-tunnel.md): every reliable frame gets the next number of
 * its direction, counted from 1 over the tunnel's whole life (not per connection), and is kept here
 * until the peer acknowledges it. After a reconnect the peer says how many it has; the rest is sent
 * again, in order, so the receiver's count and the sender's numbers meet without a number on the wire.
 */
import { TunnelError } from "./frames.ts";

export class ReplayLog {
  /** reliable frames numbered so far */
  private sent = 0;
  /** the peer has every frame up to this number */
  private acked = 0;
  /** frames acked+1 … sent, encoded */
  private kept: Uint8Array[] = [];
  private keptBytes = 0;

  /** Numbers and keeps one encoded reliable frame. */
  add(frame: Uint8Array): void {
    this.sent++;
    this.kept.push(frame);
    this.keptBytes += frame.length;
  }

  /** The peer has every frame up to `received`: those are forgotten. */
  ack(received: number): void {
    if (received < this.acked || received > this.sent)
      throw new TunnelError(`acknowledges frame ${received}, outside ${this.acked}…${this.sent}`);
    for (const f of this.kept.splice(0, received - this.acked)) this.keptBytes -= f.length;
    this.acked = received;
  }

  /** What the peer has not acknowledged, oldest first: sent again after a resume. */
  unacked(): readonly Uint8Array[] {
    return this.kept;
  }

  /** bytes kept for a resend */
  get bytes(): number {
    return this.keptBytes;
  }
}
