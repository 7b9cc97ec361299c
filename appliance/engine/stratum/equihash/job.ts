/** EqJob: Equihash pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { PrefixJob } from "../prefix-lane.ts";
import type { EqUpstream, UpstreamWork } from "./upstream.ts";

export class EqJob extends PrefixJob<EqUpstream, UpstreamWork> {
  /** mining.notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean] */
  protected notifyParams(clean: boolean): unknown[] {
    const w = this.work;
    return [this.jobId, w.version, w.prevHash, w.merkleRoot, w.reserved, w.time, w.bits, clean];
  }
}
