/**
 * Objects the proxy makes, by JSC type, between two points: live and garbage alike. After a full GC
 * JSC's per-type counts hold only live objects; until the next collection every object made since
 * counts too (it is not swept yet), so the difference between `start` and `stop` is what the code
 * in between allocated — unless a collection ran in between, which a weak reference to a fresh
 * object reveals, and then the window is void. Bun has no allocation profiler: `--heap-prof` writes
 * a snapshot, and JSC's GC log sizes do not add up to bytes allocated.
 */
import { heapStats } from "bun:jsc";

export interface AllocationWindow {
  /** a collection ran inside the window: the counts are short and must not be used */
  collected: boolean;
  /** objects made, by JSC type (strings count as "string"; their characters are not objects) */
  made: Record<string, number>;
}

export class AllocationCounter {
  private from: Record<string, number> = {};
  private canary: WeakRef<object> | null = null;

  start(): void {
    Bun.gc(true);
    this.from = heapStats().objectTypeCounts;
    this.canary = new WeakRef({});
  }

  stop(): AllocationWindow {
    const to = heapStats().objectTypeCounts;
    const made: Record<string, number> = {};
    for (const [type, n] of Object.entries(to)) {
      const d = n - (this.from[type] ?? 0);
      if (d > 0) made[type] = d;
    }
    return { collected: this.canary?.deref() === undefined, made };
  }
}
