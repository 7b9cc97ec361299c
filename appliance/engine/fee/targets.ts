/**
 * Fee targets: the port's fee wallets as the engine uses them (who to submit as, where), and the
 * ratio a device is held to after the priority device > miner wallet > port.
 */
import type { PortWallet } from "../../domain/port.ts";
import { type Endpoint, parseEndpoint } from "../transport/endpoint.ts";

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

export const feeKey = (w: PortWallet): string =>
  `${w.id}|${w.addr}|${w.device}|${w.pool_address}|${w.pool_protocol}`;

const clampRatio = (r: number): number => Math.min(1, Math.max(0, Number.isFinite(r) ? r : 0));

/** Where a pool address is dialled for a protocol (a port resolves RMS2/RMS3 to its tunnel's loopback port). */
export type EndpointOf = (address: string, protocol: number) => Endpoint | null;

export function toTargets(
  wallets: readonly PortWallet[],
  endpointOf: EndpointOf = parseEndpoint,
): FeeTarget[] {
  return wallets
    .filter((w) => w.addr.trim().length > 0)
    .map((w) => ({
      key: feeKey(w),
      walletId: w.id,
      addr: w.addr.trim(),
      device: w.device.trim(),
      user: w.device.trim() ? `${w.addr.trim()}.${w.device.trim()}` : w.addr.trim(),
      endpoint: endpointOf(w.pool_address, w.pool_protocol),
      ratio: clampRatio(w.ratio),
    }));
}

/**
 * What a device override is keyed by: the miner's wallet and worker name, which the miner sends again
 * after a reconnect or an appliance restart (the registry's device id is assigned per run). JSON keeps
 * the pair unambiguous whatever characters the names hold.
 */
export const deviceOverrideKey = (wallet: string, name: string): string => JSON.stringify([wallet, name]);

/**
 * Per-device and per-wallet overrides. An override scales the port's fee wallets to a new total and
 * only applies when the port's wallets have a ratio.
 */
export class RatioOverrides {
  private readonly byDevice = new Map<string, number>();
  private readonly byWallet = new Map<string, number>();

  /** deviceKey: deviceOverrideKey of the device's wallet and worker name */
  setDevice(deviceKey: string, ratio: number | null): void {
    if (ratio === null) this.byDevice.delete(deviceKey);
    else this.byDevice.set(deviceKey, clampRatio(ratio));
  }

  setWallet(wallet: string, ratio: number | null): void {
    if (ratio === null) this.byWallet.delete(wallet);
    else this.byWallet.set(wallet, clampRatio(ratio));
  }

  /**
   * The ledger a device is balanced in: its own, its wallet's, or the port's shared one. Asked
   * three times per login, so the device's key is only made when some device has an override.
   */
  groupKey(wallet: string, name: string): string {
    if (this.byDevice.size > 0) {
      const deviceKey = deviceOverrideKey(wallet, name);
      if (this.byDevice.has(deviceKey)) return `${DEVICE_GROUP}${deviceKey}`;
    }
    if (this.byWallet.has(wallet)) return `${WALLET_GROUP}${wallet}`;
    return PORT_GROUP;
  }

  /** The port's ratios scaled to a group's override; the port's own for the port group. */
  groupRatios(port: readonly TargetRatio[], groupKey: string): readonly TargetRatio[] {
    const override = this.overrideOf(groupKey);
    if (override === undefined) return port;
    const sum = ratioSum(port);
    if (sum <= 0) return port;
    return port.map((r) => ({ key: r.key, ratio: (r.ratio / sum) * override }));
  }

  ratios(port: readonly TargetRatio[], wallet: string, name: string): readonly TargetRatio[] {
    return this.groupRatios(port, this.groupKey(wallet, name));
  }

  /** The override a group key stands for; undefined for the port group or a cleared override. */
  overrideOf(groupKey: string): number | undefined {
    if (groupKey.startsWith(DEVICE_GROUP)) return this.byDevice.get(groupKey.slice(DEVICE_GROUP.length));
    if (groupKey.startsWith(WALLET_GROUP)) return this.byWallet.get(groupKey.slice(WALLET_GROUP.length));
    return undefined;
  }
}

const DEVICE_GROUP = "device:";
const WALLET_GROUP = "wallet:";
export const PORT_GROUP = "port";

/** A loop, not `reduce`: a login asks for it, and `reduce` makes its callback each time. */
export function ratioSum(ratios: readonly TargetRatio[]): number {
  let sum = 0;
  for (let i = 0; i < ratios.length; i++) sum += (ratios[i] as TargetRatio).ratio;
  return sum;
}
