/**
 * Lane: one Ethereum pool session kept alive for a target in one dialect, with the miners mining on
 * it now (prefix-lane.ts). An ETHPROXY session logs in by itself and has no prefix; a NiceHash
 * (EthereumStratum/1.0.0) session authorizes the lane's users and its prefix must leave room for a
 * slot byte.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { PrefixLane, type PrefixLaneHost, type PrefixLaneMiner } from "../prefix-lane.ts";
import { EthJob } from "./job.ts";
import type { Dialect } from "./methods.ts";
import { EthUpstream, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

export type LaneMiner = PrefixLaneMiner<Lane, EthUpstream, EthJob>;
export interface LaneHost extends PrefixLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
}

const NICEHASH_LIMIT = {
  name: "extranonce prefix",
  maxSharedBytes: 2,
  why: "a miner's prefix is the session's and a slot byte, at most 3 bytes together",
};

export class Lane extends PrefixLane<EthUpstream, UpstreamWork, EthJob> {
  constructor(
    protected override readonly host: LaneHost,
    target: string,
    readonly dialect: Dialect,
    shared: boolean,
    /** the one worker shares go up as on a shared lane, and an ETHPROXY lane's login */
    user: string | null,
    readonly password: string,
    agent: string | null = null,
  ) {
    const es1 = dialect === "nicehash";
    super(host, target, shared, user, agent, es1 ? NICEHASH_LIMIT : null, es1 ? password : null);
  }

  protected newSession(endpoint: Endpoint): EthUpstream {
    return new EthUpstream(endpoint, this.host.upstreamOptions(this), this, this);
  }

  protected newJob(u: EthUpstream, work: UpstreamWork): EthJob {
    return new EthJob(this, u, work);
  }
}
