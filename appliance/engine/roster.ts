/**
 * An unordered set of objects kept as an array, each member holding its own index in a numeric
 * field named by the roster (−1 when not a member). Adding and removing are O(1) as in a Set, but a
 * member costs one array slot (8 bytes) instead of a Set entry (about 60 bytes in JSC), which counts
 * where every connected miner is a member (design.md's memory budget per miner).
 *
 * Iteration visits a copy, so a member may join or leave (itself or another) while others are
 * visited; the roster's callers iterate on jobs, periodic checks and shutdown, never per share.
 */
export class Roster<K extends string, T extends Record<K, number>> {
  private readonly items: T[] = [];

  constructor(private readonly key: K) {}

  get size(): number {
    return this.items.length;
  }

  has(item: T): boolean {
    const i = item[this.key];
    return i >= 0 && this.items[i] === item;
  }

  /** false when it was a member already */
  add(item: T): boolean {
    if (this.has(item)) return false;
    (item as Record<K, number>)[this.key] = this.items.length;
    this.items.push(item);
    return true;
  }

  /** false when it was not a member */
  delete(item: T): boolean {
    if (!this.has(item)) return false;
    const i = item[this.key];
    const last = this.items.pop() as T;
    if (last !== item) {
      this.items[i] = last;
      (last as Record<K, number>)[this.key] = i;
    }
    (item as Record<K, number>)[this.key] = -1;
    return true;
  }

  /** How many members `test` holds for, without the copy iteration makes (statistics ask often). */
  count(test: (item: T) => boolean): number {
    let n = 0;
    for (const item of this.items) if (test(item)) n++;
    return n;
  }

  [Symbol.iterator](): Iterator<T> {
    return this.items.slice()[Symbol.iterator]();
  }

  /**
   * `visit(member, a, b)` for each member, as iteration does, without its copy and iterator when
   * there is one member (Efficient mode: a lane per miner, visited on every pool job). A lone
   * member that leaves during its visit cannot make another be skipped.
   */
  each<A, B>(visit: (item: T, a: A, b: B) => void, a: A, b: B): void {
    const items = this.items;
    if (items.length === 1) {
      visit(items[0] as T, a, b);
      return;
    }
    const copy = items.slice();
    for (let i = 0; i < copy.length; i++) visit(copy[i] as T, a, b);
  }
}
