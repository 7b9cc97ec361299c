/**
 * Lane: one KawPow pool session kept alive for a target, with the miners mining on it now
 * (prefix-lane.ts). A shared session's nonce prefix must leave room for a slot byte.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { PrefixLane, type PrefixLaneHost, type PrefixLaneMiner } from "../prefix-lane.ts";
import { KawJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES } from "./methods.ts";
import { KawUpstream, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

export type LaneMiner = PrefixLaneMiner<Lane, KawUpstream, KawJob>;
export interface LaneHost extends PrefixLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
}

const LIMIT = {
  name: "nonce prefix",
  maxSharedBytes: MAX_SHARED_POOL_PREFIX_BYTES,
  why: "a miner takes at most 3 bytes",
};

export class Lane extends PrefixLane<KawUpstream, UpstreamWork, KawJob> {
  constructor(
    protected override readonly host: LaneHost,
    target: string,
    shared: boolean,
    user: string | null,
    agent: string | null = null,
  ) {
    super(host, target, shared, user, agent, LIMIT, "x");
  }

  protected newSession(endpoint: Endpoint): KawUpstream {
    return new KawUpstream(endpoint, this.host.upstreamOptions(this), this);
  }

  protected newJob(u: KawUpstream, work: UpstreamWork): KawJob {
    return new KawJob(this, u, work);
  }
}
