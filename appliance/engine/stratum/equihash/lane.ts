/**
 * Lane: one Equihash pool session kept alive for a target, with the miners mining on it now
 * (prefix-lane.ts). A shared session's NONCE_1 must leave room for a slot byte and the miner's NONCE_2.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { PrefixLane, type PrefixLaneHost, type PrefixLaneMiner } from "../prefix-lane.ts";
import { EqJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES, MIN_NONCE2_BYTES } from "./methods.ts";
import { EqUpstream, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

export type LaneMiner = PrefixLaneMiner<Lane, EqUpstream, EqJob>;
export interface LaneHost extends PrefixLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
}

const LIMIT = {
  name: "NONCE_1",
  maxSharedBytes: MAX_SHARED_POOL_PREFIX_BYTES,
  why: `a slot byte and ${MIN_NONCE2_BYTES} bytes of NONCE_2 must fit in the 32-byte nonce`,
};

export class Lane extends PrefixLane<EqUpstream, UpstreamWork, EqJob> {
  constructor(
    protected override readonly host: LaneHost,
    target: string,
    shared: boolean,
    user: string | null,
    agent: string | null = null,
  ) {
    super(host, target, shared, user, agent, LIMIT, "x");
  }

  protected newSession(endpoint: Endpoint): EqUpstream {
    return new EqUpstream(endpoint, this.host.upstreamOptions(this), this);
  }

  protected newJob(u: EqUpstream, work: UpstreamWork): EqJob {
    return new EqJob(this, u, work);
  }
}
