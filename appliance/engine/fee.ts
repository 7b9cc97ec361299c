/**
 * FeeScheduler: which target (the main pool or a fee wallet) a device should mine for next, so that
 * the accepted work it delivers converges on the configured split (design.md, "Fee accounting").
 * Ratios follow the priority device > miner wallet > port: an override scales the port's fee
 * wallets to a new total and only applies when the port's wallets have a ratio.
 */
import type { PortWallet } from "../domain/port.ts";
import { MAIN, type WorkSplit } from "../stats/work-split.ts";
import { type Endpoint, parseEndpoint } from "./transport/endpoint.ts";

export interface FeeTarget {
  /** stable key while the wallet's address, device name and pool stay the same */
  key: string;
  walletId: number;
  addr: string;
  device: string;
  user: string;
  endpoint: Endpoint | null;
  ratio: number;
}

export interface TargetRatio {
  key: string;
  ratio: number;
}

/**
 * A miner on the main pool moves to a fee target once that target's deficit is worth this many of
 * its shares, and then stays until the deficit is paid: one visit per few shares instead of one
 * switch per share, at the cost of a bounded, self-correcting lag of a few shares.
 */
export const FEE_BATCH_SHARES = 4;

export const feeKey = (w: PortWallet): string =>
  `${w.id}|${w.addr}|${w.device}|${w.pool_address}|${w.pool_protocol}`;

export class FeeScheduler {
  targets: FeeTarget[] = [];
  private portRatios: TargetRatio[] = [];
  private readonly deviceRatio = new Map<string, number>();
  private readonly walletRatio = new Map<string, number>();

  setWallets(wallets: readonly PortWallet[]): void {
    this.targets = wallets
      .filter((w) => w.addr.trim().length > 0)
      .map((w) => ({
        key: feeKey(w),
        walletId: w.id,
        addr: w.addr.trim(),
        device: w.device.trim(),
        user: w.device.trim() ? `${w.addr.trim()}.${w.device.trim()}` : w.addr.trim(),
        endpoint: parseEndpoint(w.pool_address, w.pool_protocol),
        ratio: Math.min(1, Math.max(0, Number.isFinite(w.ratio) ? w.ratio : 0)),
      }));
    this.portRatios = this.targets.map((t) => ({ key: t.key, ratio: t.ratio }));
  }

  target(key: string): FeeTarget | undefined {
    return this.targets.find((t) => t.key === key);
  }

  setDeviceRatio(deviceId: string, ratio: number | null): void {
    if (ratio === null) this.deviceRatio.delete(deviceId);
    else this.deviceRatio.set(deviceId, Math.min(1, Math.max(0, ratio)));
  }

  setWalletRatio(wallet: string, ratio: number | null): void {
    if (ratio === null) this.walletRatio.delete(wallet);
    else this.walletRatio.set(wallet, Math.min(1, Math.max(0, ratio)));
  }

  /** The split a device is held to. */
  ratiosFor(deviceId: string, wallet: string): TargetRatio[] {
    const override = this.deviceRatio.get(deviceId) ?? this.walletRatio.get(wallet);
    if (override === undefined) return this.portRatios;
    const sum = this.portRatios.reduce((s, r) => s + r.ratio, 0);
    if (sum <= 0) return this.portRatios;
    return this.portRatios.map((r) => ({ key: r.key, ratio: (r.ratio / sum) * override }));
  }

  /**
   * Switching decision for a miner that can be moved between sources, after each answered share.
   * `owed` is what the device owes a fee target: ratio × its accepted work − what that target got,
   * in-flight shares counted as delivered. A visit starts when a target is owed half a batch
   * (FEE_BATCH_SHARES / 2 of that target's shares) and lasts until the device is half a batch ahead,
   * so the band is centred on zero: a device is as often slightly ahead as behind, and the errors
   * of many devices cancel instead of adding up to a systematic lag.
   */
  choose(
    split: WorkSplit,
    ratios: readonly TargetRatio[],
    current: string,
    shareWork: number,
    /** work of one share on a target (its pool's difficulty can differ); default `shareWork` */
    workOn: ((key: string) => number | undefined) | null = null,
    /** shares a miner still sends for its old source after being moved (measured per miner) */
    lagShares = 0,
  ): string {
    const total = split.total + split.pendingTotal() + shareWork;
    let best = MAIN;
    let bestDeficit = Number.NEGATIVE_INFINITY;
    for (const r of ratios) {
      if (r.ratio <= 0) continue;
      // thresholds in shares of the target itself: a visit delivers whole shares of that pool
      const unit = workOn?.(r.key) ?? shareWork;
      const band = (unit * FEE_BATCH_SHARES) / 2;
      const owed = r.ratio * total - split.work(r.key) - split.pending(r.key);
      if (r.key === current) {
        // A visit ends on a whole share, on average half a share past the line: draw the line half
        // a share early so the band stays centred. Leave earlier still by the shares the miner
        // will send for this target after the move.
        if (owed - lagShares * unit > -band + unit / 2) return current;
        continue;
      }
      if (owed >= band && owed > bestDeficit) {
        best = r.key;
        bestDeficit = owed;
      }
    }
    return best;
  }

  /** Per-share decision for Compatible mode, where the fee worker shares the miner's session. */
  pickForShare(split: WorkSplit, ratios: readonly TargetRatio[], shareWork: number): string {
    const total = split.total + split.pendingTotal() + shareWork;
    let best = MAIN;
    let bestDeficit = shareWork / 2;
    for (const r of ratios) {
      if (r.ratio <= 0) continue;
      const owed = r.ratio * total - split.work(r.key) - split.pending(r.key);
      if (owed >= bestDeficit) {
        best = r.key;
        bestDeficit = owed;
      }
    }
    return best;
  }

  configuredTotal(ratios: readonly TargetRatio[]): number {
    return ratios.reduce((s, r) => s + r.ratio, 0);
  }
}
