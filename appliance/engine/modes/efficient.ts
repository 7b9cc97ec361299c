/** Efficient (0): each miner has its own main session; fee work goes through shared fee sessions. */
import { ProxyMode } from "../../domain/port.ts";
import type { ModeStrategy } from "./mode.ts";

export const EFFICIENT: ModeStrategy = {
  code: ProxyMode.EFFICIENT,
  name: "Efficient",
  sharedMain: false,
  preferredFee: "switch",
  feeMode: (movable) => (movable ? "switch" : "share"),
  needsRestart: () => false,
};
