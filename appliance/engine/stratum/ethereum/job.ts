/**
 * EthJob: pool work as the proxy hands it to miners, under a job id unique on the port (ES1 job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. ETHPROXY miners name work by its header hash instead; their lines carry no id.
 * Each miner keeps the last few jobs it was sent (miner-jobs.ts), with the prefix it mined them under.
 */
import { NotifyLines, type JobOrigin as PrefixJobOrigin } from "../prefix-lane.ts";
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

export class EthJob {
  readonly jobId = (++nextJobSeq).toString(16);
  private notifyCache: string | null = null;
  private cleanLine: string | null = null;
  private workCache: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: EthUpstream,
    readonly work: UpstreamWork,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /**
   * ES1 miners: mining.notify [jobId, seedHash, headerHash, clean]. A shared session's job goes to
   * many miners, so its lines are built once and kept; a dedicated session's goes to one miner, which
   * keeps its last jobs, and a kept line there would only hold memory (as prefix-lane.ts).
   */
  notifyLine(clean: boolean): string {
    const cached = clean ? this.cleanLine : this.notifyCache;
    if (cached !== null) return cached;
    const line = NOTIFIES.line(this.jobId, this.work, clean);
    if (!this.origin.shared) return line;
    if (clean) this.cleanLine = line;
    else this.notifyCache = line;
    return line;
  }

  /** ETHPROXY miners: the work array, pushed (id 0) or as the answer to eth_getWork. */
  workLine(id: number | string | null = WORK_PUSH_ID): string {
    if (id === WORK_PUSH_ID && this.workCache !== null) return this.workCache;
    const line = `${JSON.stringify({ id, jsonrpc: "2.0", result: this.workArray() })}\n`;
    if (id === WORK_PUSH_ID && this.origin.shared) this.workCache = line;
    return line;
  }

  private workArray(): string[] {
    return [`0x${this.work.header}`, `0x${this.work.seed}`, `0x${this.work.boundary ?? "0".repeat(64)}`];
  }
}
