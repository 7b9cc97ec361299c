/**
 * The Alephium family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one shared session carry 256 miners.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { AlphMinerSession, type MinerHost } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target: Pool mode's main pool, or a fee wallet's. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

export class AlephiumRuntime
  extends LaneRuntime<AlphMinerSession, Lane, SharedLanes>
  implements MinerHost, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): AlphMinerSession {
    return new AlphMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedLanes {
    return new SlotLanes(() => new Lane(this, target, true, user, "x"));
  }

  /** The miner's own session logged in as `user`, or its place on the shared main lanes. */
  mainLane(miner: AlphMinerSession, user: string, password: string): Lane | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.poolMainLanes().leaseFor(miner);
    return this.ownLane(new Lane(this, MAIN, false, user, password, miner.agent || null));
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return {
      agent: this.ctx.agentFor(lane.agent),
      user: lane.user,
      password: lane.password,
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }
}
