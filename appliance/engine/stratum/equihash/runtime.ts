/**
 * The Equihash family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one pool session carry 256 miners, each under the session's NONCE_1 followed by its
 * slot. The port's currency gives the solution length its shares are checked against (params.ts).
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { PortContext } from "../family.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { paramsOf, solutionBytes } from "./params.ts";
import { EqMinerSession, type MinerHost } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target, 256 miners each by slot byte. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

export class EquihashRuntime
  extends LaneRuntime<EqMinerSession, Lane, SharedLanes>
  implements MinerHost, LaneHost
{
  /** bytes of a solution on this port's coin, or null when the coin's parameters are not known */
  readonly solutionBytes: number | null;

  constructor(ctx: PortContext) {
    super(ctx);
    const p = paramsOf(ctx.config.currency);
    this.solutionBytes = p === null ? null : solutionBytes(p);
  }

  protected newMiner(socket: ByteSocket, ip: string, slot: number): EqMinerSession {
    return new EqMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedLanes {
    return new SlotLanes(() => new Lane(this, target, true, user));
  }

  protected newOwnLane(miner: EqMinerSession): Lane {
    return new Lane(this, MAIN, false, null, miner.agent || null);
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return this.sessionOptions(lane.agent);
  }
}
