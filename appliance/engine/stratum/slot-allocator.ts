/**
 * Slot bytes for miners on shared pool sessions: a miner's slot is the byte that follows a session's
 * prefix in its nonce (or extranonce), so 256 miners share one session. Slots are handed out least
 * used first, in turn, so that the miners of one shared session rarely need a second session.
 */
export const SLOTS = 256;

export class SlotAllocator {
  private readonly use = new Uint16Array(SLOTS);
  private cursor = 0;

  alloc(): number {
    let best = this.cursor;
    let bestUse = Number.POSITIVE_INFINITY;
    for (let i = 0; i < SLOTS; i++) {
      const s = (this.cursor + i) % SLOTS;
      const use = this.use[s] as number;
      if (use < bestUse) {
        best = s;
        bestUse = use;
        if (use === 0) break;
      }
    }
    this.cursor = (best + 1) % SLOTS;
    this.use[best] = bestUse + 1;
    return best;
  }

  release(slot: number): void {
    const u = this.use[slot] as number;
    if (u > 0) this.use[slot] = u - 1;
  }
}
