/**
 * The pass-through family (dynexsolve, octopus, eaglesong, blake2b, autoykos2, nexapow, cuckatoo32,
 * zksnark): a line-level relay, one pool session per miner, that rewrites the login's wallet and
 * worker and counts connections, shares, verdicts and latency (docs/engine.md, "Pass-through").
 * Efficient only: Pool mode would need the coin's nonce space split, and Compatible mode (like any
 * fee) would need fee shares the relay can neither build nor tell apart, so neither is offered.
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probePassthroughPool } from "./probe.ts";
import { PassthroughRuntime } from "./runtime.ts";

export const PASSTHROUGH: Family = {
  name: "passthrough",
  modes: [ProxyMode.EFFICIENT],
  runtime: (ctx) => new PassthroughRuntime(ctx),
  probe: probePassthroughPool,
};
