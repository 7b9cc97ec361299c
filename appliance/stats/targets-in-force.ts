/**
 * Who each target of a port is and which ratios are in force for it, keyed like the engine's
 * ledgers ("main" or feeKey of the wallet), read when the fee audit writes an hour. The wallet and
 * pool come from the port's configuration, the ratios from the engine's fee view (the effective
 * target weighs device and wallet overrides in), so nothing on the share path has to carry them.
 */
import type { FeeSplitView } from "../domain/engine.ts";
import type { Port } from "../domain/port.ts";
import { feeKey } from "../engine/fee/targets.ts";
import { MAIN } from "./work-split.ts";

export interface TargetMeta {
  /** the fee wallet's id; null for the main pool */
  walletId: number | null;
  /** the fee wallet's address; "" for the main pool (the miners' own wallets) */
  addr: string;
  /** the fee wallet's device name (worker); "" for the main pool */
  worker: string;
  /** the pool the target's shares go to */
  pool: string;
  /** the configured ratio: the wallet's, or for the main pool 1 − the wallets' sum */
  configured: number;
  /** the effective ratio with overrides weighted in (docs/engine.md "Fee accounting") */
  target: number;
}

export type TargetsInForce = Map<string, TargetMeta>;

const ratio = (r: number): number => Math.min(1, Math.max(0, Number.isFinite(r) ? r : 0));

/**
 * `fee` is the running port's fee view, or null when the port is not running (the configured
 * ratios then stand for the target too). `onStandby`: the main traffic goes to the standby pool.
 */
export function targetsInForce(port: Port, fee: FeeSplitView | null, onStandby: boolean): TargetsInForce {
  const out: TargetsInForce = new Map();
  let configuredSum = 0;
  for (const w of port.wallets) {
    // the engine makes no target of a row without an address (engine/fee/targets.ts toTargets)
    if (w.addr.trim() === "") continue;
    const live = fee?.wallets.find((x) => x.walletId === w.id);
    const configured = live?.configured ?? ratio(w.ratio);
    configuredSum += configured;
    out.set(feeKey(w), {
      walletId: w.id,
      addr: w.addr.trim(),
      worker: w.device.trim(),
      pool: w.pool_address,
      configured,
      target: live?.target ?? configured,
    });
  }
  const mainConfigured = Math.max(0, 1 - configuredSum);
  out.set(MAIN, {
    walletId: null,
    addr: "",
    worker: "",
    pool: onStandby && port.pool_address2 ? port.pool_address2 : port.pool_address,
    configured: mainConfigured,
    target: fee ? Math.max(0, 1 - fee.target) : mainConfigured,
  });
  return out;
}
