/**
 * The Kaspa family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot
 * bytes that let one pool session carry 256 miners (the byte after the session's prefix in the nonce).
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import { Lane, type LaneHost } from "./lane.ts";
import { KaspaMinerSession, type MinerHost } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

export class KaspaRuntime
  extends LaneRuntime<KaspaMinerSession, Lane, SharedSource>
  implements MinerHost, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): KaspaMinerSession {
    return new KaspaMinerSession(this, socket, ip, slot);
  }

  protected newShared(target: string, user: string): SharedSource {
    return new SharedSource(this, target, user, "x");
  }

  /** The miner's own session, or its place on the shared main lanes (opened at the first subscribe). */
  mainLane(miner: KaspaMinerSession): Lane | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.poolMainLanes().leaseFor(miner);
    return this.ownLane(new Lane(this, MAIN, false, null, "x", miner.agent || null));
  }

  upstreamOptions(lane: Lane): UpstreamOptions {
    return {
      agent: this.ctx.agentFor(lane.agent),
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }
}
