/**
 * NonceSpace: the lanes of one target — a fee wallet, the main pool in Pool mode, or one miner's
 * own session in Efficient mode — between which miners are placed. A shared lane holds up to 256
 * miners, one byte of blob[42] each per pool job; a miner returning to a lane whose current job it
 * already mined takes another unused byte of that job, so it never repeats a nonce the pool has
 * seen. When no lane has a byte left, a new lane (pool session) opens. Idle fee lanes close after
 * `feeIdleMs`.
 */
import { BYTES_PER_JOB } from "./job.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import type { UpstreamLogin } from "./upstream.ts";

export class NonceSpace {
  readonly lanes: Lane[] = [];

  constructor(
    private readonly host: LaneHost,
    readonly target: string,
    /** several miners share each lane (Pool mode main, fee); false: one miner's own session */
    readonly shared: boolean,
    private readonly login: UpstreamLogin,
    private readonly agent: string | null = null,
  ) {}

  /**
   * The lane this miner should mine on now: the one it holds a place on if that lane has a byte
   * left on its current job (or no job yet), else another with room, else a new one. A dedicated
   * space has one lane whatever happens.
   */
  place(miner: LaneMiner): Lane {
    if (!this.shared) return this.lanes[0] ?? this.open();
    let held: Lane | null = null;
    for (const lane of this.lanes) if (lane.members.has(miner)) held = lane;
    if (held?.hasRoom) return held;
    for (const lane of this.lanes) {
      if (lane !== held && lane.members.size < BYTES_PER_JOB && lane.hasRoom) {
        held?.members.delete(miner);
        lane.members.add(miner);
        return lane;
      }
    }
    held?.members.delete(miner);
    const lane = this.open();
    lane.members.add(miner);
    return lane;
  }

  private open(): Lane {
    const lane = new Lane(this.host, this.target, this.shared, this.login, this.agent);
    this.lanes.push(lane);
    lane.open();
    return lane;
  }

  release(miner: LaneMiner): void {
    for (const lane of this.lanes) {
      lane.members.delete(miner);
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
