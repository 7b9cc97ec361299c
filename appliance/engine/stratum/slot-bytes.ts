/**
 * Slot bytes of a port: the byte after a shared session's nonce prefix that tells its miners apart
 * (256 per session). Each miner takes the least-used byte when it connects, so the miners of one
 * shared session rarely need a second one; a byte is given back when its miner leaves.
 */
export const SLOTS_PER_SESSION = 256;

const SLOT_HEX = Array.from({ length: SLOTS_PER_SESSION }, (_, i) => i.toString(16).padStart(2, "0"));
/** A slot byte as two hex digits, from a table: it goes into job lines and shares without a new string. */
export const slotHex = (slot: number): string => SLOT_HEX[slot & 0xff] as string;

export class SlotBytes {
  private readonly use = new Uint16Array(SLOTS_PER_SESSION);
  private cursor = 0;

  take(): number {
    let best = this.cursor;
    let bestUse = Number.POSITIVE_INFINITY;
    for (let i = 0; i < SLOTS_PER_SESSION; i++) {
      const s = (this.cursor + i) % SLOTS_PER_SESSION;
      const use = this.use[s] as number;
      if (use < bestUse) {
        best = s;
        bestUse = use;
        if (use === 0) break;
      }
    }
    this.cursor = (best + 1) % SLOTS_PER_SESSION;
    this.use[best] = bestUse + 1;
    return best;
  }

  give(slot: number): void {
    const u = this.use[slot] as number;
    if (u > 0) this.use[slot] = u - 1;
  }

  /** Takes `slot` back in place of `held` (a resumed session's byte); false when a miner has it. */
  retake(slot: number, held: number): boolean {
    if (slot === held) return true;
    if ((this.use[slot] as number) > 0) return false;
    this.use[slot] = 1;
    this.give(held);
    return true;
  }
}
