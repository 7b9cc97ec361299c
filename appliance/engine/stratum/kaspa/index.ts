/**
 * The Kaspa family (protocols.md §D): kHeavyHash and its forks (karlsenhash, blake3s) over the
 * Kaspa bridge stratum. Efficient and Pool mode; fee by moving miners to shared fee sessions with
 * mining.set_extranonce, or, for a miner that did not send mining.extranonce.subscribe, by
 * submitting some of its shares under the fee worker on its own session. Compatible is not offered:
 * the Efficient fallback already is Compatible for the miners that need it, and a whole port of
 * Compatible miners has not been tested against Kaspa pools.
 */
import { ProxyMode } from "../../../domain/port.ts";
import { probeEthereumPool } from "../ethereum/probe.ts";
import type { Family } from "../family.ts";
import { KaspaRuntime } from "./runtime.ts";

export const KASPA: Family = {
  name: "kaspa",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new KaspaRuntime(ctx),
  // Kaspa miners subscribe exactly as EthereumStratum/1.0.0 ones do; any answer times the pool
  probe: probeEthereumPool,
};
