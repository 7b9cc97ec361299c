/**
 * A share's path through the fee ledgers, the same for every family that moves miners between pool
 * sessions: where the share is submitted (its job's target or, Compatible-style, a fee target picked
 * share by share), its work in flight in the device's and the group's ledgers, the pool's verdict
 * settled and credited, hashrate protection, and which target the scheduler wants next. Families
 * call these instead of repeating them, so the accounting cannot drift apart between them.
 */
import type { EngineTiming } from "../../domain/engine.ts";
import type { Port } from "../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../stats/work-split.ts";
import type { FeeMode } from "../modes/mode.ts";
import type { FeeSeat } from "./fee-group.ts";
import type { FeeScheduler } from "./scheduler.ts";

/** A share on its way to a pool, as the ledgers count it. */
export interface LedgerShare {
  readonly target: string;
  readonly work: number;
  readonly device: DeviceRecord;
  readonly ledger: WorkSplit;
}

export interface ShareRoute {
  target: string;
  /** the worker the share is submitted as */
  user: string;
}

/**
 * Where a share of `work` goes: the job's own target and worker, unless the miner pays its fee
 * per share (Compatible-style) and the group owes a fee target whose worker the session authorized.
 */
export function routeShare(
  feeMode: FeeMode,
  protectedNow: boolean,
  seat: FeeSeat,
  fee: FeeScheduler,
  work: number,
  job: ShareRoute,
  authorized: ReadonlySet<string>,
): ShareRoute {
  if (feeMode !== "share" || fee.targets.length === 0 || protectedNow) return job;
  const pick = seat.group.pickForShare(work);
  const feeUser = pick === MAIN ? undefined : fee.target(pick)?.user;
  return feeUser !== undefined && authorized.has(feeUser) ? { target: pick, user: feeUser } : job;
}

/** The share is sent: its work is in flight for its target until the pool answers. */
export function submitted(
  seat: FeeSeat,
  fee: FeeScheduler,
  device: DeviceRecord,
  target: string,
  work: number,
): void {
  seat.group.submitted(seat, target, work, fee.now());
  device.split.addInflight(target, work);
  seat.group.ledger.addInflight(target, work);
  device.lastSubmitAt = Date.now();
}

/** The pool answered: the work leaves flight and, when accepted and counted, is credited. */
export function settled(
  registry: DeviceRegistry,
  share: LedgerShare,
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
 * Hashrate protection (setting.lj, docs/engine.md): a young connection, or one whose main session
 * started recently, is neither diverted nor entered in the fee ledgers.
 */
export function isProtected(
  config: Port,
  timing: EngineTiming,
  connectedAt: number,
  sessionSince: number | null,
): boolean {
  if (config.setting.lj !== 1) return false;
  const now = Date.now();
  const p = timing.protectMs;
  return now - connectedAt < p || (sessionSince !== null && now - sessionSince < p);
}

/** The target the scheduler wants this miner on now, or null when there is nothing to decide. */
export function wantedTarget(
  seat: FeeSeat,
  fee: FeeScheduler,
  current: string,
  protectedNow: boolean,
): string | null {
  if (fee.targets.length === 0 && current === MAIN) return null;
  seat.group.setActive(seat, !protectedNow, fee.now());
  return protectedNow ? MAIN : fee.decide(seat);
}
