/**
 * The Kaspa family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one pool session carry 256 miners (the byte after the session's prefix in the nonce).
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import type { MovableHost } from "../movable-miner.ts";
import { Lane, type LaneHost } from "./lane.ts";
import { KaspaMinerSession } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

export class KaspaRuntime
  extends LaneRuntime<KaspaMinerSession, Lane, SharedSource>
  implements MovableHost<Lane>, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): KaspaMinerSession {
    return new KaspaMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedSource {
    return new SharedSource(this, target, user, "x");
  }

  protected newOwnLane(miner: KaspaMinerSession): Lane {
    return new Lane(this, MAIN, false, null, "x", miner.agent || null);
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return this.sessionOptions(lane.agent);
  }
}
