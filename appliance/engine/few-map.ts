/**
 * Maps and sets that usually hold one or two entries: a session's requests awaiting an answer, the
 * workers authorized on it, the users a lane logs in. In Efficient mode every miner has its own
 * session and lane, and an empty JSC Map or Set that has held an entry keeps a 224-byte table, three
 * of them per miner. Up to FEW entries live in one flat array searched in order; past that a real
 * Map takes over (a shared session carrying hundreds of miners' shares).
 */
const FEW = 8;

/** What code that only asks whether a key is present needs of a set (a Set or a FewSet). */
export interface Membership<K> {
  has(key: K): boolean;
}

export class FewMap<K, V> implements Iterable<[K, V]> {
  /** k0, v0, k1, v1, … while small */
  private flat: unknown[] | null = null;
  private map: Map<K, V> | null = null;

  get size(): number {
    return this.map !== null ? this.map.size : (this.flat?.length ?? 0) / 2;
  }

  private indexOf(key: K): number {
    const f = this.flat;
    if (f === null) return -1;
    for (let i = 0; i < f.length; i += 2) if (f[i] === key) return i;
    return -1;
  }

  get(key: K): V | undefined {
    if (this.map !== null) return this.map.get(key);
    const i = this.indexOf(key);
    return i < 0 ? undefined : ((this.flat as unknown[])[i + 1] as V);
  }

  has(key: K): boolean {
    return this.map !== null ? this.map.has(key) : this.indexOf(key) >= 0;
  }

  set(key: K, value: V): this {
    if (this.map !== null) {
      this.map.set(key, value);
      return this;
    }
    const i = this.indexOf(key);
    if (i >= 0) (this.flat as unknown[])[i + 1] = value;
    else if (this.size < FEW) {
      this.flat ??= [];
      this.flat.push(key, value);
    } else {
      this.map = new Map(this);
      this.map.set(key, value);
      this.flat = null;
    }
    return this;
  }

  delete(key: K): boolean {
    if (this.map !== null) return this.map.delete(key);
    const i = this.indexOf(key);
    if (i < 0) return false;
    (this.flat as unknown[]).splice(i, 2);
    return true;
  }

  clear(): void {
    this.flat = null;
    this.map = null;
  }

  /**
   * Visits every entry with `arg`, without what for-of makes (a generator, its frame, a result
   * object per step and an array per entry): a session's subscribe and close run this once per
   * miner in Efficient mode. Entries may come and go during the visits, as a Map allows: a lone
   * entry is visited directly, several over a copy.
   */
  each<A>(visit: (value: V, key: K, arg: A) => void, arg: A): void {
    if (this.map !== null) {
      for (const [k, v] of this.map) visit(v, k, arg);
      return;
    }
    const f = this.flat;
    if (f === null || f.length === 0) return;
    if (f.length === 2) {
      visit(f[1] as V, f[0] as K, arg);
      return;
    }
    const copy = f.slice();
    for (let i = 0; i < copy.length; i += 2) visit(copy[i + 1] as V, copy[i] as K, arg);
  }

  *values(): IterableIterator<V> {
    for (const [, v] of this) yield v;
  }

  *keys(): IterableIterator<K> {
    for (const [k] of this) yield k;
  }

  *[Symbol.iterator](): IterableIterator<[K, V]> {
    if (this.map !== null) {
      yield* this.map;
      return;
    }
    // a copy, so that entries may come and go while the caller visits them, as a Map allows
    const f = this.flat?.slice() ?? [];
    for (let i = 0; i < f.length; i += 2) yield [f[i] as K, f[i + 1] as V];
  }
}

/** A set of the same kind. */
export class FewSet<K> extends FewMap<K, true> {
  add(key: K): this {
    return this.set(key, true);
  }
}
