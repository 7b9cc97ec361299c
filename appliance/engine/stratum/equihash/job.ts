/** EqJob: Equihash pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { NotifyLines, PrefixJob } from "../prefix-lane.ts";
import { PrefixMethod } from "../prefix-upstream.ts";
import type { EqUpstream, UpstreamWork } from "./upstream.ts";

/** mining.notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean] */
const NOTIFIES = new NotifyLines<UpstreamWork>(
  PrefixMethod.NOTIFY,
  (a, b) =>
    a.version === b.version &&
    a.prevHash === b.prevHash &&
    a.merkleRoot === b.merkleRoot &&
    a.reserved === b.reserved &&
    a.time === b.time &&
    a.bits === b.bits,
  (w, clean) => [w.version, w.prevHash, w.merkleRoot, w.reserved, w.time, w.bits, clean],
);

export class EqJob extends PrefixJob<EqUpstream, UpstreamWork> {
  // a getter, not a field: a field is a slot in every job, and each miner keeps a few jobs
  protected get notifies(): NotifyLines<UpstreamWork> {
    return NOTIFIES;
  }
}
