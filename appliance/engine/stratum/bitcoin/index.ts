/** The Bitcoin stratum family (protocols.md §A): sha256d, scrypt and the other Bitcoin-style coins. */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeBitcoinPool } from "./probe.ts";
import { BitcoinRuntime } from "./runtime.ts";

export const BITCOIN: Family = {
  name: "bitcoin",
  modes: [ProxyMode.EFFICIENT, ProxyMode.COMPATIBLE, ProxyMode.POOL],
  runtime: (ctx) => new BitcoinRuntime(ctx),
  probe: probeBitcoinPool,
};
