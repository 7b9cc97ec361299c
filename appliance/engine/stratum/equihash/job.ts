/** EqJob: Equihash pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { PrefixJob } from "../prefix-lane.ts";
import { EquihashMethod } from "./methods.ts";
import type { EqUpstream, UpstreamWork } from "./upstream.ts";

export class EqJob extends PrefixJob<EqUpstream, UpstreamWork> {
  /** mining.notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean] */
  protected notify(clean: boolean): { method: string; params: unknown[] } {
    const w = this.work;
    return {
      method: EquihashMethod.NOTIFY,
      params: [this.jobId, w.version, w.prevHash, w.merkleRoot, w.reserved, w.time, w.bits, clean],
    };
  }
}
