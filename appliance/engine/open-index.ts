/**
 * Items found by a key without a JavaScript Map, for tables with an entry per connected miner. A
 * Map entry costs about 70 to 150 bytes (with the table's spare room) and usually a key string
 * besides, which JSC heap snapshots showed as the largest per-miner cost after the sessions
 * themselves (docs/benchmarks.md); here the items sit in one array in the order they came, and an
 * open-addressing index of their places (an Int32Array at most half full) finds them: about 20
 * bytes an item.
 *
 * A removed item leaves a hole in the array and its index slot pointing at the hole, so that a
 * removal never moves another item (callers remove items while they walk them). Holes go when an
 * addition finds them outnumbering the items.
 */

export const FNV_START = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
/** after each part, so that ("ab", "c") and ("a", "bc") hash apart */
const SEPARATOR = 0x7c;

/** FNV-1a of `s`, continuing from `h` (start a key from FNV_START). */
export function mixHash(h: number, s: string): number {
  let x = h;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), FNV_PRIME);
  return Math.imul(x ^ SEPARATOR, FNV_PRIME);
}

const MIN_SLOTS = 16;

export abstract class OpenIndex<T extends object, K> {
  private items: Array<T | null> = [];
  private live = 0;
  /** an item's place in `items` plus one; 0 is an empty slot */
  private slots = new Int32Array(MIN_SLOTS);

  /** the hash of `key`; an item's hash is that of its own key */
  protected abstract hashKey(key: K): number;
  protected abstract hashItem(item: T): number;
  protected abstract matches(item: T, key: K): boolean;

  get size(): number {
    return this.live;
  }

  find(key: K): T | undefined {
    const mask = this.slots.length - 1;
    for (let i = this.hashKey(key) & mask; ; i = (i + 1) & mask) {
      const at = this.slots[i] as number;
      if (at === 0) return undefined;
      const item = this.items[at - 1];
      if (item != null && this.matches(item, key)) return item;
    }
  }

  /** Adds an item whose key is not in the index yet. */
  add(item: T): void {
    if (this.items.length >= 2 * this.live + MIN_SLOTS) this.compact();
    this.items.push(item);
    this.live++;
    if (this.items.length * 2 > this.slots.length) this.reindex();
    else this.place(item, this.items.length);
  }

  remove(item: T): void {
    const mask = this.slots.length - 1;
    for (let i = this.hashItem(item) & mask; ; i = (i + 1) & mask) {
      const at = this.slots[i] as number;
      if (at === 0) return;
      if (this.items[at - 1] === item) {
        this.items[at - 1] = null;
        this.live--;
        return;
      }
    }
  }

  *values(): IterableIterator<T> {
    // by place: a removal during the walk leaves a hole and moves nothing
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i];
      if (item != null) yield item;
    }
  }

  private place(item: T, at: number): void {
    const mask = this.slots.length - 1;
    let i = this.hashItem(item) & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = at;
  }

  private compact(): void {
    this.items = this.items.filter((item) => item !== null);
    this.reindex();
  }

  private reindex(): void {
    let n = MIN_SLOTS;
    while (n < this.items.length * 2) n *= 2;
    this.slots = new Int32Array(n);
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i];
      if (item != null) this.place(item, i + 1);
    }
  }
}
