/**
 * The Alephium family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one shared session carry 256 miners.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime, type Login } from "../lane-runtime.ts";
import type { MovableHost } from "../movable-miner.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { AlphMinerSession } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target: Pool mode's main pool, or a fee wallet's. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

export class AlephiumRuntime
  extends LaneRuntime<AlphMinerSession, Lane, SharedLanes>
  implements MovableHost<Lane>, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): AlphMinerSession {
    return new AlphMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedLanes {
    return new SlotLanes(() => new Lane(this, target, true, user, "x"));
  }

  /** The miner's own session logs in as the miner's rewritten worker. */
  protected newOwnLane(miner: AlphMinerSession, login: Login | null): Lane {
    return new Lane(this, MAIN, false, login?.user ?? "", login?.password ?? "x", miner.agent || null);
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return this.sessionOptions(lane.agent);
  }
}
