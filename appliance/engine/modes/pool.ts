/**
 * Pool (2): the port's miners share a few main sessions (nonce space split between them) under the
 * unified wallet and device name; fee by moving miners to shared fee sessions.
 */
import { ProxyMode } from "../../domain/port.ts";
import type { ModeStrategy } from "./mode.ts";

export const POOL: ModeStrategy = {
  code: ProxyMode.POOL,
  name: "Pool",
  sharedMain: true,
  preferredFee: "switch",
  feeMode: (movable) => (movable ? "switch" : "share"),
  // the shared sessions are logged in as the unified identity
  needsRestart: (a, b) => a.proxy_addr !== b.proxy_addr || a.proxy_device !== b.proxy_device,
};
