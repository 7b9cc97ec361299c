/**
 * Compatible (1): each miner has its own main session and never leaves it; the fee worker is
 * authorized on that session and some shares are submitted under its name.
 */
import { ProxyMode } from "../../domain/port.ts";
import type { ModeStrategy } from "./mode.ts";

export const COMPATIBLE: ModeStrategy = {
  code: ProxyMode.COMPATIBLE,
  name: "Compatible",
  sharedMain: false,
  preferredFee: "share",
  feeMode: () => "share",
  needsRestart: () => false,
};
