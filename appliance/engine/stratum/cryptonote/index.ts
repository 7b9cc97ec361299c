/**
 * The CryptoNote family (protocols.md §C): xmrig's login/job/submit/keepalived for the RandomX coins.
 * Efficient and Pool modes; no Compatible mode, because a CryptoNote session has one login and a
 * share carries no worker name, so a fee share on the miner's own session would be credited to the
 * miner's wallet (see docs/engine.md).
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeCryptoNotePool } from "./probe.ts";
import { CryptoNoteRuntime } from "./runtime.ts";

export const CRYPTONOTE: Family = {
  name: "cryptonote",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new CryptoNoteRuntime(ctx),
  probe: probeCryptoNotePool,
};
