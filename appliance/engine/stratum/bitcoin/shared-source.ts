/**
 * NonceSpace on shared sessions: the lanes of one target (a fee wallet, or the main pool in Pool
 * mode) whose 256 slots miners lease by their 1-byte extranonce1. A new lane opens only when a
 * miner's slot is taken on every open lane; an idle fee lane is closed after `feeIdleMs`.
 */
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";

export class SharedSource {
  readonly lanes: Lane[] = [];

  constructor(
    private readonly host: LaneHost,
    readonly target: string,
    private readonly user: string,
    private readonly password: string,
  ) {}

  /** The lane holding this miner's slot, leasing one (and opening a lane) if needed. */
  leaseFor(miner: LaneMiner): Lane {
    for (const lane of this.lanes) if (lane.slots.get(miner.slot) === miner) return lane;
    for (const lane of this.lanes) {
      if (!lane.slots.has(miner.slot)) {
        lane.slots.set(miner.slot, miner);
        return lane;
      }
    }
    const lane = new Lane(this.host, this.target, true, "reframe", this.user);
    lane.addUser(this.user, this.password);
    lane.slots.set(miner.slot, miner);
    this.lanes.push(lane);
    lane.open();
    return lane;
  }

  release(miner: LaneMiner): void {
    for (const lane of this.lanes) {
      if (lane.slots.get(miner.slot) === miner) lane.slots.delete(miner.slot);
      lane.miners.delete(miner);
      lane.unwait(miner);
    }
  }

  /** Closes lanes nobody mined on for `idleMs`; their slot leases go with them. */
  sweep(now: number, idleMs: number): void {
    for (let i = this.lanes.length - 1; i >= 0; i--) {
      const lane = this.lanes[i] as Lane;
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
