/**
 * The Equihash family (ZIP 301, protocols.md §F): ZEC, ZEN, FLUX, BTG, KMD, ARRR, BTCZ, ZCL, YEC.
 * Efficient and Pool mode; fee by moving miners to shared fee sessions with mining.set_extranonce.
 * Compatible is not offered as a mode: it is only the fallback for a miner that cannot take a new
 * NONCE_1 (see docs/engine.md, the Equihash section).
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeEquihashPool } from "./probe.ts";
import { EquihashRuntime } from "./runtime.ts";

export const EQUIHASH: Family = {
  name: "equihash",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new EquihashRuntime(ctx),
  probe: probeEquihashPool,
};
