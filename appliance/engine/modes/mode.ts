/**
 * A proxy mode (spec §4, "Connection mode") as a strategy: how miners reach the main pool and how
 * fee is taken from them. Families ask the strategy instead of testing the mode number, so a mode's
 * rules live in one file (xmrig-proxy's splitters).
 */
import type { LogLevel } from "../../domain/engine.ts";
import type { Port, ProxyModeCode } from "../../domain/port.ts";

/** How fee is taken from a miner: by moving it between pool sessions, or per share on its own session. */
export type FeeMode = "switch" | "share";

export interface ModeStrategy {
  readonly code: ProxyModeCode;
  readonly name: string;
  /** miners share a few upstream sessions (nonce space split) under the port's unified identity */
  readonly sharedMain: boolean;
  /** how this mode prefers to take fee */
  readonly preferredFee: FeeMode;
  /** how fee is taken from a miner; `movable`: it can be moved between pool sessions */
  feeMode(movable: boolean): FeeMode;
  /** edits this mode cannot apply to running sessions (the port restarts) */
  needsRestart(before: Port, after: Port): boolean;
}

/**
 * The one place a miner's fee mode is chosen; a miner that cannot be moved falls back to taking fee
 * per share on its own session (design.md), and the operator is told why.
 */
export function chooseFeeMode(
  mode: ModeStrategy,
  movable: boolean,
  who: string,
  feeConfigured: boolean,
  /** the miner's host, not a closure: this runs on every login */
  logger: { log(level: LogLevel, message: string): void },
  /** why the miner cannot be moved, in the family's terms */
  why = "small extranonce2",
): FeeMode {
  const chosen = mode.feeMode(movable);
  if (chosen !== mode.preferredFee && feeConfigured)
    logger.log("info", `miner ${who}: cannot be switched between pools (${why}); using Compatible fee`);
  return chosen;
}
