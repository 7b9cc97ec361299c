/**
 * EthJob: pool work as the proxy hands it to miners, under a job id unique on the port (ES1 job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. ETHPROXY miners name work by its header hash instead; their lines carry no id.
 * Each miner keeps the last few jobs it was sent (miner-jobs.ts), with the prefix it mined them under.
 */
import type { LineWriter } from "../../transport/line-writer.ts";
import { type NotifyJob, NotifyLines, type JobOrigin as PrefixJobOrigin } from "../prefix-lane.ts";
import { NicehashMethod, WORK_PUSH_ID } from "./methods.ts";
import type { EthUpstream, UpstreamWork } from "./upstream.ts";

/** The part of a lane a job needs: a prefix lane's, and the lane's id. */
export interface JobOrigin extends PrefixJobOrigin {
  readonly id: number;
}

let nextJobSeq = 0;

/** ES1's mining.notify [jobId, seedHash, headerHash, clean] */
const NOTIFIES = new NotifyLines<UpstreamWork>(
  NicehashMethod.NOTIFY,
  (a, b) => a.seed === b.seed && a.header === b.header,
  (w, clean) => [w.seed, w.header, clean],
);

/**
 * ETHPROXY's pushed work (id 0) carries no job id: one line serves every miner given the same work.
 * The last line made is given again while the work is the same (in Efficient mode the pool's job
 * reaches every miner's session one after another).
 */
let pushedWork: UpstreamWork | null = null;
let pushedLine = "";

const samePush = (a: UpstreamWork, b: UpstreamWork): boolean =>
  a.header === b.header && a.seed === b.seed && a.boundary === b.boundary;

const workLineOf = (id: number | string | null, w: UpstreamWork): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", result: [`0x${w.header}`, `0x${w.seed}`, `0x${w.boundary ?? "0".repeat(64)}`] })}\n`;

export class EthJob implements NotifyJob<UpstreamWork> {
  readonly jobId = (++nextJobSeq).toString(16);
  plainLine: string | null = null;
  cleanLine: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: EthUpstream,
    readonly work: UpstreamWork,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /** ES1 miners: mining.notify [jobId, seedHash, headerHash, clean] (NotifyLines.write). */
  writeNotify(out: LineWriter, clean: boolean): void {
    NOTIFIES.write(out, this, clean);
  }

  /** ETHPROXY miners: the work array, pushed (id 0) or as the answer to eth_getWork. */
  workLine(id: number | string | null = WORK_PUSH_ID): string {
    if (id !== WORK_PUSH_ID) return workLineOf(id, this.work);
    const w = this.work;
    if (pushedWork !== w && (pushedWork === null || !samePush(pushedWork, w))) {
      pushedWork = w;
      pushedLine = workLineOf(WORK_PUSH_ID, w);
    }
    return pushedLine;
  }
}
