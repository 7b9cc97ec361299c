/**
 * The slot leases of one shared session: which miner holds each of its 256 slot bytes. A fixed
 * array rather than a Map: 8 bytes a miner instead of a Map entry's 40 or more, and every miner of
 * a Pool-mode port holds a lease (design.md's memory budget per miner).
 */
import { SLOTS_PER_SESSION } from "./slot-bytes.ts";

export class SlotTable<M> {
  private readonly holders: Array<M | undefined> = new Array(SLOTS_PER_SESSION).fill(undefined);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(slot: number): M | undefined {
    return this.holders[slot];
  }

  has(slot: number): boolean {
    return this.holders[slot] !== undefined;
  }

  set(slot: number, miner: M): void {
    if (this.holders[slot] === undefined) this.count++;
    this.holders[slot] = miner;
  }

  delete(slot: number): void {
    if (this.holders[slot] === undefined) return;
    this.holders[slot] = undefined;
    this.count--;
  }

  clear(): void {
    this.holders.fill(undefined);
    this.count = 0;
  }
}
