/**
 * SlotLanes: the shared sessions of one target (a fee wallet's, or the main pool's in Pool mode),
 * each carrying up to 256 miners told apart by their slot byte (slot-bytes.ts). A miner is placed on
 * the first session where its slot is free; when it is taken on every session, another opens. Idle
 * sessions (no miner on them for idleMs) close.
 */
import type { SlotMiner } from "./pool-lane.ts";
import type { SlotTable } from "./slot-table.ts";

/** The part of a lane slot leasing needs. */
export interface SlotLane<M> {
  readonly slots: SlotTable<M>;
  readonly miners: { delete(m: M): boolean; readonly size: number };
  unwait(m: M): void;
  readonly waitingCount: number;
  lastActive: number;
  open(): void;
  close(): void;
  rehome(reason: string): void;
}

export class SlotLanes<L extends SlotLane<M>, M extends SlotMiner> {
  readonly lanes: L[] = [];

  /** `newLane` builds a lane of this target, not opened yet. */
  constructor(private readonly newLane: () => L) {}

  /** The lane holding this miner's slot, opening one if needed. */
  leaseFor(miner: M): L {
    for (const lane of this.lanes) if (lane.slots.get(miner.slot) === miner) return lane;
    const lane = this.lanes.find((l) => !l.slots.has(miner.slot)) ?? this.openLane();
    lane.slots.set(miner.slot, miner);
    return lane;
  }

  /** The first lane, opened if there is none: for sessions whose miners need no slot. */
  first(): L {
    return this.lanes[0] ?? this.openLane();
  }

  private openLane(): L {
    const lane = this.newLane();
    this.lanes.push(lane);
    lane.open();
    return lane;
  }

  release(miner: M): void {
    for (const lane of this.lanes) {
      if (lane.slots.get(miner.slot) === miner) lane.slots.delete(miner.slot);
      lane.miners.delete(miner);
      lane.unwait(miner);
    }
  }

  /** Closes lanes nobody mined on for `idleMs`. */
  sweep(now: number, idleMs: number): void {
    for (let i = this.lanes.length - 1; i >= 0; i--) {
      const lane = this.lanes[i] as L;
      if (lane.miners.size > 0 || lane.waitingCount > 0) {
        lane.lastActive = now;
        continue;
      }
      if (now - lane.lastActive < idleMs) continue;
      lane.close();
      lane.slots.clear();
      this.lanes.splice(i, 1);
    }
  }

  rehome(reason: string): void {
    for (const lane of this.lanes) lane.rehome(reason);
  }

  close(): void {
    for (const lane of this.lanes) lane.close();
    this.lanes.length = 0;
  }

  get sessions(): number {
    return this.lanes.length;
  }
}
