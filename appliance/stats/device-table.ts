/**
 * The registry's devices by port, wallet, name and address (engine/open-index.ts): a Map keyed by
 * a string of the four cost every connected miner about 210 bytes, this about 20.
 */
import { FNV_PRIME, FNV_START, mixHash, OpenIndex } from "../engine/open-index.ts";

export interface DeviceKey {
  readonly portId: number;
  readonly wallet: string;
  readonly name: string;
  readonly ip: string;
}

const hashOf = (k: DeviceKey): number =>
  mixHash(mixHash(mixHash(Math.imul(FNV_START ^ k.portId, FNV_PRIME), k.wallet), k.name), k.ip) >>> 0;

export class DeviceTable<T extends DeviceKey> extends OpenIndex<T, DeviceKey> {
  protected hashKey(key: DeviceKey): number {
    return hashOf(key);
  }

  protected hashItem(item: T): number {
    return hashOf(item);
  }

  protected matches(d: T, k: DeviceKey): boolean {
    return d.portId === k.portId && d.wallet === k.wallet && d.name === k.name && d.ip === k.ip;
  }
}
