/**
 * FeeScheduler: one per port. Holds the fee targets, the ratio overrides and the groups that balance
 * them (fee-group.ts), gives each authorized miner a seat, and answers the two questions a miner
 * asks: where to mine now (Efficient/Pool) and whom this share is for (Compatible).
 */
import type { PortWallet } from "../../domain/port.ts";
import type { DeviceRecord } from "../../stats/device-registry.ts";
import { FeeGroup, FeeSeat, type SeatOwner } from "./fee-group.ts";
import {
  deviceOverrideKey,
  type EndpointOf,
  type FeeTarget,
  PORT_GROUP,
  RatioOverrides,
  ratioSum,
  type TargetRatio,
  toTargets,
} from "./targets.ts";

/** The split the port is held to: each group's ratios weighted by the group's accepted work. */
export interface EffectiveSplit {
  ratio: number;
  byTarget: Map<string, number>;
}

export class FeeScheduler {
  targets: FeeTarget[] = [];
  /** minimum time between a device's fee switches (the pump_t setting) */
  holdMs = 0;
  private portRatios: TargetRatio[] = [];
  private readonly overrides = new RatioOverrides();
  private readonly groups = new Map<string, FeeGroup>();

  constructor(readonly now: () => number = Date.now) {
    this.groups.set(PORT_GROUP, new FeeGroup([], now()));
  }

  /** `endpointOf`: where each wallet's pool is dialled (the port's, which knows its tunnels) */
  setWallets(wallets: readonly PortWallet[], endpointOf?: EndpointOf): void {
    this.targets = toTargets(wallets, endpointOf);
    this.portRatios = this.targets.map((t) => ({ key: t.key, ratio: t.ratio }));
    this.refreshRatios();
  }

  /** A loop, not `find` with a closure: shares ask this, and a closure over `key` is two objects a call. */
  target(key: string): FeeTarget | undefined {
    const targets = this.targets;
    for (let i = 0; i < targets.length; i++) if ((targets[i] as FeeTarget).key === key) return targets[i];
    return undefined;
  }

  /** Set or clear (null) an override; the caller then regroups the affected miners' seats. */
  /** A device is named by its miner wallet and worker name, as it logs in again after a restart. */
  setDeviceRatio(wallet: string, name: string, ratio: number | null): void {
    this.overrides.setDevice(deviceOverrideKey(wallet, name), ratio);
    this.refreshRatios();
  }

  setWalletRatio(wallet: string, ratio: number | null): void {
    this.overrides.setWallet(wallet, ratio);
    this.refreshRatios();
  }

  private refreshRatios(): void {
    for (const [key, g] of this.groups) g.ratios = this.overrides.groupRatios(this.portRatios, key);
  }

  /** The split a device is held to. */
  ratiosFor(device: DeviceRecord): readonly TargetRatio[] {
    return this.overrides.ratios(this.portRatios, device.wallet, device.name);
  }

  configuredFor(device: DeviceRecord): number {
    return ratioSum(this.ratiosFor(device));
  }

  /** A seat for an authorized miner, in the group its device belongs to. */
  seat(device: DeviceRecord, owner: SeatOwner): FeeSeat {
    const now = this.now();
    const group = this.groupFor(device, now);
    const seat = new FeeSeat(group, device, owner, now);
    group.join(seat, now);
    return seat;
  }

  /** Moves a seat to its device's group after an override changed. */
  regroup(seat: FeeSeat): void {
    const now = this.now();
    const group = this.groupFor(seat.device, now);
    if (group === seat.group) return;
    seat.group.leave(seat, now);
    this.dropIfUnused(seat.group);
    group.join(seat, now);
  }

  release(seat: FeeSeat): void {
    seat.group.leave(seat, this.now());
  }

  decide(seat: FeeSeat): string {
    return seat.group.decide(seat, this.now(), this.holdMs);
  }

  /** Periodic: keep the sums exact and let miners on fee targets decide without waiting for a share. */
  tick(): void {
    const now = this.now();
    for (const g of this.groups.values()) {
      g.resum(now);
      for (const s of [...g.visitors]) s.owner.reconsider();
    }
  }

  effective(): EffectiveSplit {
    let total = 0;
    const owed = new Map<string, number>();
    for (const g of this.groups.values()) {
      const w = g.ledger.total;
      total += w;
      for (const r of g.ratios) owed.set(r.key, (owed.get(r.key) ?? 0) + w * r.ratio);
    }
    if (total <= 0) {
      const byTarget = new Map(this.portRatios.map((r) => [r.key, r.ratio]));
      return { ratio: ratioSum(this.portRatios), byTarget };
    }
    const byTarget = new Map([...owed].map(([k, v]) => [k, v / total]));
    return { ratio: [...byTarget.values()].reduce((a, b) => a + b, 0), byTarget };
  }

  private groupFor(device: DeviceRecord, now: number): FeeGroup {
    const key = this.overrides.groupKey(device.wallet, device.name);
    let g = this.groups.get(key);
    if (g === undefined) {
      g = new FeeGroup(this.overrides.groupRatios(this.portRatios, key), now);
      this.groups.set(key, g);
    }
    return g;
  }

  /** An override group whose override is gone and whose last miner left. */
  private dropIfUnused(g: FeeGroup): void {
    if (g.seats.size > 0) return;
    for (const [key, v] of this.groups)
      if (v === g && key !== PORT_GROUP && this.overrides.overrideOf(key) === undefined)
        this.groups.delete(key);
  }
}
