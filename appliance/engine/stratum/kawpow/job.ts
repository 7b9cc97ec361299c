/** KawJob: KawPow pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { PrefixJob } from "../prefix-lane.ts";
import type { KawUpstream, UpstreamWork } from "./upstream.ts";

export class KawJob extends PrefixJob<KawUpstream, UpstreamWork> {
  /** mining.notify [jobId, headerHash, seedHash, target, clean, height, bits] */
  protected notifyParams(clean: boolean): unknown[] {
    const w = this.work;
    return [this.jobId, w.header, w.seed, w.target, clean, w.height, w.bits];
  }
}
