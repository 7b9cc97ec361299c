/**
 * The shared sessions of one target: a fee wallet's sessions, or the main pool's in Pool mode. Each
 * carries 256 miners told apart by a slot byte after the session's nonce prefix; a miner whose slot
 * is taken on every open session gets a new one. Idle fee sessions close after feeIdleMs.
 */
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";

export class SharedSource {
  readonly lanes: Lane[] = [];

  constructor(
    private readonly host: LaneHost,
    readonly target: string,
    private readonly user: string,
  ) {}

  /** The lane holding this miner's slot, opening one if needed. */
  leaseFor(miner: LaneMiner): Lane {
    for (const lane of this.lanes) if (lane.slots.get(miner.slot) === miner) return lane;
    let lane = this.lanes.find((l) => !l.slots.has(miner.slot));
    if (lane === undefined) {
      lane = new Lane(this.host, this.target, true, this.user);
      this.lanes.push(lane);
      lane.open();
    }
    lane.slots.set(miner.slot, miner);
    return lane;
  }

  release(miner: LaneMiner): void {
    for (const lane of this.lanes) {
      if (lane.slots.get(miner.slot) === miner) lane.slots.delete(miner.slot);
      lane.miners.delete(miner);
      lane.waiting.delete(miner);
    }
  }

  /** Closes lanes nobody mined on for `idleMs`. */
  sweep(now: number, idleMs: number): void {
    for (let i = this.lanes.length - 1; i >= 0; i--) {
      const lane = this.lanes[i] as Lane;
      if (lane.miners.size > 0 || lane.waiting.size > 0) {
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
