/**
 * The Ethereum family (protocols.md §B): ethash, etchash and their kin, ETHPROXY and NiceHash
 * EthereumStratum/1.0.0 miners on one port. Compatible mode is not offered: an ETHPROXY session has
 * one login, so a fee worker's shares cannot go over an ETHPROXY miner's own session.
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeEthereumPool } from "./probe.ts";
import { EthereumRuntime } from "./runtime.ts";

export const ETHEREUM: Family = {
  name: "ethereum",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new EthereumRuntime(ctx),
  probe: probeEthereumPool,
};
