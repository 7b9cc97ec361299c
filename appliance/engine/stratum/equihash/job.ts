/**
 * EqJob: Equihash pool work as the proxy hands it to miners, under a job id unique on the port (job
 * ids of different pool sessions collide), with the session that issued it, so that a late share
 * goes to that session. Each miner keeps the last few jobs it was sent (MinerJobs) with the NONCE_1
 * it mined them under, and the shares it already submitted for each (a duplicate is answered locally).
 */
import { requestLine } from "../message.ts";
import { EquihashMethod } from "./methods.ts";
import type { EqUpstream, UpstreamWork } from "./upstream.ts";

/** The part of a lane a job needs. */
export interface JobOrigin {
  /** "main" or a fee wallet key */
  readonly target: string;
  /** the one worker every share is submitted as on a shared lane; null: the miner's own */
  readonly user: string | null;
  readonly shared: boolean;
}

let nextJobSeq = 0;

export class EqJob {
  readonly jobId = (++nextJobSeq).toString(16);
  private readonly lines: [string | null, string | null] = [null, null];

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: EqUpstream,
    readonly work: UpstreamWork,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /**
   * mining.notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean]. A shared session's job
   * goes to many miners, so its line is built once per flag; a dedicated session's goes to one miner,
   * which keeps its last jobs, and a cached line there would only hold memory.
   */
  notifyLine(clean: boolean): string {
    const i = clean ? 1 : 0;
    const cached = this.lines[i];
    if (cached !== null) return cached;
    const w = this.work;
    const line = requestLine(null, EquihashMethod.NOTIFY, [
      this.jobId,
      w.version,
      w.prevHash,
      w.merkleRoot,
      w.reserved,
      w.time,
      w.bits,
      clean,
    ]);
    if (this.origin.shared) this.lines[i] = line;
    return line;
  }
}

/** A job as one miner received it, the NONCE_1 its nonces start with and the shares it sent. */
export interface SentJob {
  job: EqJob;
  prefix: string;
  nonces: Set<string> | null;
}

/**
 * Jobs a miner may still submit shares for. Older ones answer "stale": a miner moved between pools
 * still sends shares for the job it left for a moment, and a pool keeps a few jobs of one block.
 */
export const JOBS_PER_MINER = 8;
/** Shares remembered per job and miner for the duplicate check (a bound, not an expected count). */
const NONCES_PER_JOB = 4096;

export class MinerJobs {
  private readonly sent: SentJob[] = [];

  add(job: EqJob, prefix: string): void {
    this.sent.push({ job, prefix, nonces: null });
    if (this.sent.length > JOBS_PER_MINER) this.sent.shift();
  }

  byId(jobId: string): SentJob | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const s = this.sent[i] as SentJob;
      if (s.job.jobId === jobId) return s;
    }
    return undefined;
  }

  /** Records a share's key (its time, NONCE_2 and solution) for the job; false when already sent. */
  firstUse(s: SentJob, nonce: string): boolean {
    s.nonces ??= new Set();
    if (s.nonces.has(nonce)) return false;
    if (s.nonces.size < NONCES_PER_JOB) s.nonces.add(nonce);
    return true;
  }

  get last(): SentJob | undefined {
    return this.sent[this.sent.length - 1];
  }

  clear(): void {
    this.sent.length = 0;
  }
}
