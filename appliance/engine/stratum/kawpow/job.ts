/** KawJob: KawPow pool work as the proxy hands it to miners (prefix-lane.ts, PrefixJob). */
import { NotifyLines, PrefixJob } from "../prefix-lane.ts";
import { PrefixMethod } from "../prefix-upstream.ts";
import type { KawUpstream, UpstreamWork } from "./upstream.ts";

/** mining.notify [jobId, headerHash, seedHash, target, clean, height, bits] */
const NOTIFIES = new NotifyLines<UpstreamWork>(
  PrefixMethod.NOTIFY,
  (a, b) =>
    a.header === b.header &&
    a.seed === b.seed &&
    a.target === b.target &&
    a.height === b.height &&
    a.bits === b.bits,
  (w, clean) => [w.header, w.seed, w.target, clean, w.height, w.bits],
);

export class KawJob extends PrefixJob<KawUpstream, UpstreamWork> {
  // a getter, not a field: a field is a slot in every job, and each miner keeps a few jobs
  protected get notifies(): NotifyLines<UpstreamWork> {
    return NOTIFIES;
  }
}
