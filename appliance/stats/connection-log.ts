/**
 * A device's connection log (spec §1, "device connection log"): its last connects and disconnects,
 * newest first. Kept as signed timestamps (+ connect, − disconnect) in a short array the device
 * record holds itself, with no wrapper object, because every device holds one and the memory per
 * miner is budgeted (design.md, Budgets).
 */
import type { ConnectionEvent } from "../domain/engine.ts";

/** Events kept per device: enough to see a rig flapping, small enough for 10,000 devices. */
export const CONNECTION_LOG_SIZE = 20;

export function logConnection(events: number[], at: number, connected: boolean): void {
  events.push(connected ? at : -at);
  if (events.length > CONNECTION_LOG_SIZE) events.shift();
}

export function connectionView(events: readonly number[]): ConnectionEvent[] {
  const out: ConnectionEvent[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] ?? 0;
    out.push({ at: Math.abs(e), event: e > 0 ? "connect" : "disconnect" });
  }
  return out;
}
