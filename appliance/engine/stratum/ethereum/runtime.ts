/**
 * The Ethereum family's side of a running port (a LaneRuntime): its miners (both dialects on one listener), the
 * lanes they mine on (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee
 * wallet) and the slot bytes that let one ES1 session carry 256 miners.
 *
 * A pool session speaks the dialect of the miners it carries; neither dialect can be carried over
 * the other: an ETHPROXY miner draws its whole 64-bit nonce at random, so its shares would not start
 * with an ES1 session's prefix, and an ES1 miner submits no mix digest, which an ETHPROXY pool checks
 * (computing it would mean hashing every share on the proxy). So a port opens ETHPROXY sessions for
 * its ETHPROXY miners and EthereumStratum/1.0.0 sessions for its NiceHash miners, to the same pools.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { OptionsByAgent } from "../agent-options.ts";
import { LaneRuntime, type Login } from "../lane-runtime.ts";
import type { MovableHost } from "../movable-miner.ts";
import { Lane, type LaneHost } from "./lane.ts";
import type { Dialect } from "./methods.ts";
import { EthMinerSession } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

export class EthereumRuntime
  extends LaneRuntime<EthMinerSession, Lane, SharedSource>
  implements MovableHost<Lane>, LaneHost
{
  protected newMiner(socket: ByteSocket, ip: string, slot: number): EthMinerSession {
    return new EthMinerSession(this, socket, ip, slot);
  }

  /** Shared lanes in one dialect (the variant): a pool session carries miners of its own dialect only. */
  protected newShared(target: string, user: string, dialect: string): SharedSource {
    return new SharedSource(this, target, dialect as Dialect, user, "x");
  }

  protected override variantOf(miner: EthMinerSession): string | null {
    return miner.dialect;
  }

  /** The miner's own session in its dialect; an ETHPROXY one logs in as the miner's `login`. */
  protected newOwnLane(miner: EthMinerSession, login: Login | null, dialect: string): Lane {
    const user = login?.user ?? null;
    return new Lane(this, MAIN, dialect as Dialect, false, user, login?.password ?? "x", miner.agent || null);
  }

  /** One options object per dialect and agent presented; the login is the lane's own. */
  upstreamOptions(lane: Lane): UpstreamOptions {
    const byAgent = lane.dialect === "ethproxy" ? this.ethproxyOptions : this.nicehashOptions;
    return byAgent.get(this.ctx.agentFor(lane.agent));
  }

  private readonly ethproxyOptions = this.optionsIn("ethproxy");
  private readonly nicehashOptions = this.optionsIn("nicehash");

  private optionsIn(dialect: Dialect): OptionsByAgent<UpstreamOptions> {
    return new OptionsByAgent((presented) => ({ ...this.sessionOptions(presented), dialect }));
  }

  protected override laneName(lane: Lane): string {
    return `${super.laneName(lane)}, ${lane.dialect}`;
  }
}
