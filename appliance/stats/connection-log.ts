/**
 * A device's connection log (spec §1, "device connection log"): its last connects and disconnects,
 * newest first. Kept as signed timestamps (+ connect, − disconnect) in a short array, because every
 * device holds one and the memory per miner is budgeted (design.md, Budgets).
 */
import type { ConnectionEvent } from "../domain/engine.ts";

/** Events kept per device: enough to see a rig flapping, small enough for 10,000 devices. */
export const CONNECTION_LOG_SIZE = 20;

export class ConnectionLog {
  private readonly events: number[] = [];

  connected(at: number): void {
    this.push(at);
  }

  disconnected(at: number): void {
    this.push(-at);
  }

  view(): ConnectionEvent[] {
    const out: ConnectionEvent[] = [];
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i] ?? 0;
      out.push({ at: Math.abs(e), event: e > 0 ? "connect" : "disconnect" });
    }
    return out;
  }

  private push(signed: number): void {
    this.events.push(signed);
    if (this.events.length > CONNECTION_LOG_SIZE) this.events.shift();
  }
}
