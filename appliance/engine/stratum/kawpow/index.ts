/**
 * The KawPow family (protocols.md §G): kawpow, kawpow2 and progpow coins (RVN, CLORE, NEOX, AIPG,
 * XNA, MEWC, FIRO…). Efficient and Pool mode; fee by moving miners to shared fee sessions with
 * mining.set_extranonce. Compatible is not offered as a mode: it is only the fallback for a miner
 * that cannot take a new nonce prefix (see docs/engine.md, the KawPow section).
 */
import { ProxyMode } from "../../../domain/port.ts";
import type { Family } from "../family.ts";
import { probeKawpowPool } from "./probe.ts";
import { KawpowRuntime } from "./runtime.ts";

export const KAWPOW: Family = {
  name: "kawpow",
  modes: [ProxyMode.EFFICIENT, ProxyMode.POOL],
  runtime: (ctx) => new KawpowRuntime(ctx),
  probe: probeKawpowPool,
};
