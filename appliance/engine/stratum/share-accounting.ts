/**
 * The fee ledgers' side of a share, the same in every family that moves miners for fee: a share
 * enters as in-flight work for the target that issued its job (the device's split, its fee group's
 * ledger and rate), and its answer settles that work, counts the outcome and, unless hashrate
 * protection holds, credits accepted work (docs/engine.md, "Fee accounting"); and which fee wallet a
 * share goes to when its miner pays the fee per share.
 */

import type { EngineTiming } from "../../domain/engine.ts";
import type { Port } from "../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../stats/work-split.ts";
import type { FeeSeat } from "../fee/fee-group.ts";
import type { FeeScheduler } from "../fee/scheduler.ts";
import type { FeeTarget } from "../fee/targets.ts";
import type { Membership } from "../few-map.ts";

/** A share sent to `target`'s pool: in flight until answered; returns the ledger its answer settles. */
export function shareSent(
  fee: FeeScheduler,
  seat: FeeSeat,
  device: DeviceRecord,
  target: string,
  work: number,
): WorkSplit {
  seat.group.submitted(seat, target, work, fee.now());
  device.split.addInflight(target, work);
  seat.group.ledger.addInflight(target, work);
  device.lastSubmitAt = Date.now();
  return seat.group.ledger;
}

/** What a pool's answer settles. */
export interface AnsweredShare {
  readonly device: DeviceRecord;
  readonly ledger: WorkSplit;
  readonly target: string;
  readonly work: number;
}

/** The pool answered a share; `counted`: not under hashrate protection. */
export function shareAnswered(
  registry: DeviceRegistry,
  share: AnsweredShare,
  outcome: ShareOutcome,
  latencyMs: number,
  counted: boolean,
): void {
  share.device.split.settleInflight(share.target, share.work);
  share.ledger.settleInflight(share.target, share.work);
  registry.result(share.device, outcome, share.target, share.work, latencyMs, counted, Date.now());
  if (counted && outcome === "valid") share.ledger.credit(share.target, share.work);
}

/**
 * Hashrate protection (setting.lj): a device younger than protectMs, or whose main session started
 * less than protectMs ago, is neither diverted nor entered in the fee ledgers.
 */
export function hashrateProtected(
  config: Port,
  timing: EngineTiming,
  connectedAt: number,
  mainSessionSince: number | null,
): boolean {
  if (config.setting.lj !== 1) return false;
  const now = Date.now();
  const p = timing.protectMs;
  return now - connectedAt < p || (mainSessionSince !== null && now - mainSessionSince < p);
}

/**
 * Where the fee scheduler wants a switching miner now, or null when it stays where it is: there is
 * no fee target and it mines for the main pool, or it is already where it is wanted. A protected
 * miner (hashrate protection) is wanted on the main pool and leaves its group's sums meanwhile.
 * Called after every answered share: `miner` is passed, not a closure, so nothing is allocated.
 */
export function wantedMove(
  seat: FeeSeat,
  fee: FeeScheduler,
  current: string,
  miner: { isProtected(): boolean },
): string | null {
  if (fee.targets.length === 0 && current === MAIN) return null;
  const protect = miner.isProtected();
  seat.group.setActive(seat, !protect, fee.now());
  const want = protect ? MAIN : fee.decide(seat);
  return want === current ? null : want;
}

/**
 * Compatible-style fee (a miner that pays per share on its own session): the fee wallet the group
 * owes a share of `work` to, when that wallet's worker is authorized on the share's session; else
 * undefined, and the share goes as its job's. Returns the scheduler's own target: nothing is
 * allocated per share.
 */
export function feeWorkerFor(
  seat: FeeSeat,
  fee: FeeScheduler,
  work: number,
  authorized: Membership<string>,
): FeeTarget | undefined {
  const pick = seat.group.pickForShare(work);
  const t = pick === MAIN ? undefined : fee.target(pick);
  return t !== undefined && authorized.has(t.user) ? t : undefined;
}
