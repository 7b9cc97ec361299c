/**
 * Lane: one Kaspa pool session kept alive for a target, with the miners mining on it now
 * (prefix-lane.ts). The pool gives the session's prefix in its subscribe answer or in a
 * mining.set_extranonce before the first job; a shared one must leave room for a slot byte.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { PrefixLane, type PrefixLaneHost, type PrefixLaneMiner } from "../prefix-lane.ts";
import { KaspaJob } from "./job.ts";
import { MAX_SHARED_PREFIX_BYTES } from "./methods.ts";
import { KaspaUpstream, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

export type LaneMiner = PrefixLaneMiner<Lane, KaspaUpstream, KaspaJob>;
export interface LaneHost extends PrefixLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
}

const LIMIT = {
  name: "extranonce prefix",
  maxSharedBytes: MAX_SHARED_PREFIX_BYTES - 1,
  why: "a miner's prefix is the session's and a slot byte; ASICs take two bytes at most",
};

export class Lane extends PrefixLane<KaspaUpstream, UpstreamWork, KaspaJob> {
  constructor(
    protected override readonly host: LaneHost,
    target: string,
    shared: boolean,
    /** the one worker shares go up as on a shared lane; null: each miner's own */
    user: string | null,
    password: string,
    agent: string | null = null,
  ) {
    super(host, target, shared, user, agent, LIMIT, password);
  }

  protected newSession(endpoint: Endpoint): KaspaUpstream {
    return new KaspaUpstream(endpoint, this.host.upstreamOptions(this), this);
  }

  protected newJob(u: KaspaUpstream, work: UpstreamWork): KaspaJob {
    return new KaspaJob(this, u, work);
  }
}
