/** KawJob: KawPow pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { PrefixJob } from "../prefix-lane.ts";
import { KawpowMethod } from "./methods.ts";
import type { KawUpstream, UpstreamWork } from "./upstream.ts";

export class KawJob extends PrefixJob<KawUpstream, UpstreamWork> {
  /** mining.notify [jobId, headerHash, seedHash, target, clean, height, bits] */
  protected notify(clean: boolean): { method: string; params: unknown[] } {
    const w = this.work;
    return {
      method: KawpowMethod.NOTIFY,
      params: [this.jobId, w.header, w.seed, w.target, clean, w.height, w.bits],
    };
  }
}
