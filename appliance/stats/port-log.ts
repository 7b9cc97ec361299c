/** The last lines logged for a port (GET /api/port/{id}/log), a bounded ring. */
import type { LogLevel, PortLogEntry } from "../domain/engine.ts";

const KEEP = 200;

export class PortLog {
  private readonly entries: PortLogEntry[] = [];

  add(level: LogLevel, message: string, at = Date.now()): void {
    this.entries.push({ at, level, message });
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
  }

  list(): PortLogEntry[] {
    return this.entries.slice().reverse();
  }
}
