/**
 * The KawPow family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one pool session carry 256 miners, each under the session's nonce prefix followed
 * by its slot.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import type { MovableHost } from "../movable-miner.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { KawMinerSession } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target, 256 miners each by slot byte. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

export class KawpowRuntime
  extends LaneRuntime<KawMinerSession, Lane, SharedLanes>
  implements MovableHost<Lane>, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): KawMinerSession {
    return new KawMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedLanes {
    return new SlotLanes(() => new Lane(this, target, true, user));
  }

  protected newOwnLane(miner: KawMinerSession): Lane {
    return new Lane(this, MAIN, false, null, miner.agent || null);
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return this.sessionOptions(lane.agent);
  }
}
