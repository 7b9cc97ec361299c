/**
 * The Alephium family (protocols.md §E): blake3 ALPH miners, Efficient and Pool mode, fee by moving
 * miners to shared fee sessions with mining.set_extranonce. Compatible mode is not offered: a share
 * names its worker, but the reference pool pushes a new extranonce after every mining.authorize, so
 * a fee worker authorized on a miner's own session would change that miner's prefix under it.
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeAlephiumPool } from "./probe.ts";
import { AlephiumRuntime } from "./runtime.ts";

export const ALEPHIUM: Family = {
  name: "alephium",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new AlephiumRuntime(ctx),
  probe: probeAlephiumPool,
};
