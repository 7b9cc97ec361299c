/**
 * The KawPow family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one pool session carry 256 miners, each under the session's nonce prefix followed
 * by its slot.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import type { PrefixHost } from "../prefix-miner.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { KawMinerSession } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target, 256 miners each by slot byte. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

export class KawpowRuntime
  extends LaneRuntime<KawMinerSession, Lane, SharedLanes>
  implements PrefixHost<Lane>, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): KawMinerSession {
    return new KawMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedLanes {
    return new SlotLanes(() => new Lane(this, target, true, user));
  }

  /** The miner's own session, or its place on the shared main lanes (opened at the first subscribe). */
  mainLane(miner: KawMinerSession): Lane | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.poolMainLanes().leaseFor(miner);
    return this.ownLane(new Lane(this, MAIN, false, null, miner.agent || null));
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return {
      agent: this.ctx.agentFor(lane.agent),
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }
}
