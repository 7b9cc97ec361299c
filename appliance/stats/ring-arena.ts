/**
 * The buckets of every hashrate window of a thread, in large shared Float32Arrays. A window of its
 * own Float32Array(39) cost 210 bytes of heap and about 425 of resident memory (a small typed
 * array's storage is allocated apart from its object); in a shared block its 156 bytes cost 156.
 * Every connected miner's device has at least one window (design.md's memory budget per miner).
 */

/** windows per block: 1,024 windows of 39 buckets are 160 KB */
const BLOCK_WINDOWS = 1024;

export class RingArena {
  private readonly blocks: Float32Array[] = [];
  /** places given back, taken again first */
  private readonly free: number[] = [];
  private next = 0;

  constructor(
    /** buckets per window */
    readonly width: number,
  ) {}

  /** A place for one window's buckets, all zero. */
  take(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    const place = this.next++;
    if (place % BLOCK_WINDOWS === 0) this.blocks.push(new Float32Array(BLOCK_WINDOWS * this.width));
    return place;
  }

  /** Gives a place back; its buckets are zeroed for the next window. */
  give(place: number): void {
    const at = this.offset(place);
    this.block(place).fill(0, at, at + this.width);
    this.free.push(place);
  }

  /** The block holding `place`; its buckets start at `offset(place)`. */
  block(place: number): Float32Array {
    return this.blocks[Math.floor(place / BLOCK_WINDOWS)] as Float32Array;
  }

  offset(place: number): number {
    return (place % BLOCK_WINDOWS) * this.width;
  }

  /** places in use (the benchmarks and tests read it) */
  get inUse(): number {
    return this.next - this.free.length;
  }
}
