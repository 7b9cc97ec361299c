/**
 * EthJob: pool work as the proxy hands it to miners, under a job id unique on the port (ES1 job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. ETHPROXY miners name work by its header hash instead; their lines carry no id.
 * Each miner keeps the last few jobs it was sent (MinerJobs), with the prefix it mined them under.
 */
import { requestLine } from "../message.ts";
import type { JobOrigin as PrefixJobOrigin } from "../prefix-lane.ts";
import { NicehashMethod, WORK_PUSH_ID } from "./methods.ts";
import type { EthUpstream, UpstreamWork } from "./upstream.ts";

/** The part of a lane a job needs: a prefix lane's, and the lane's id. */
export interface JobOrigin extends PrefixJobOrigin {
  readonly id: number;
}

let nextJobSeq = 0;

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

  /** ES1 miners: mining.notify [jobId, seedHash, headerHash, clean], built once per flag. */
  notifyLine(clean: boolean): string {
    const cached = clean ? this.cleanLine : this.notifyCache;
    if (cached !== null) return cached;
    const line = requestLine(null, NicehashMethod.NOTIFY, [
      this.jobId,
      this.work.seed,
      this.work.header,
      clean,
    ]);
    if (clean) this.cleanLine = line;
    else this.notifyCache = line;
    return line;
  }

  /** ETHPROXY miners: the work array, pushed (id 0) or as the answer to eth_getWork. */
  workLine(id: number | string | null = WORK_PUSH_ID): string {
    if (id === WORK_PUSH_ID && this.workCache !== null) return this.workCache;
    const line = `${JSON.stringify({ id, jsonrpc: "2.0", result: this.workArray() })}\n`;
    if (id === WORK_PUSH_ID) this.workCache = line;
    return line;
  }

  private workArray(): string[] {
    return [`0x${this.work.header}`, `0x${this.work.seed}`, `0x${this.work.boundary ?? "0".repeat(64)}`];
  }
}

/** A job as one miner received it: the prefix in force then is the one its nonces start with. */
export interface SentJob {
  job: EthJob;
  prefix: string;
}

/**
 * Jobs a miner may still submit shares for. Older ones answer "stale": a miner moved between pools
 * still sends shares for the job it left for a moment, and a pool keeps a few jobs of one block.
 */
export const JOBS_PER_MINER = 8;

export class MinerJobs {
  private readonly sent: SentJob[] = [];

  add(job: EthJob, prefix: string): void {
    this.sent.push({ job, prefix });
    if (this.sent.length > JOBS_PER_MINER) this.sent.shift();
  }

  /** By proxy job id (ES1). */
  byId(jobId: string): SentJob | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const s = this.sent[i] as SentJob;
      if (s.job.jobId === jobId) return s;
    }
    return undefined;
  }

  /** By header hash (ETHPROXY): the latest session that gave this miner the header. */
  byHeader(header: string): SentJob | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const s = this.sent[i] as SentJob;
      if (s.job.work.header === header) return s;
    }
    return undefined;
  }

  get last(): SentJob | undefined {
    return this.sent[this.sent.length - 1];
  }

  clear(): void {
    this.sent.length = 0;
  }
}
