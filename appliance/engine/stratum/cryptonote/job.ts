/**
 * Job: one pool job as one miner was given it — the pool job, the lane and session it came from and
 * the value of blob[42] reserved for that miner — under a proxy job id unique on the port, so that
 * a late share finds the session that issued its job and the byte it must carry.
 */
import { type JoinedLine, joinedLine, LinePart } from "../../transport/joined-line.ts";
import { JobIndex } from "../job-index.ts";
import { oldestMayGo } from "../miner-jobs.ts";
import { slotHex } from "../slot-bytes.ts";
import { type PoolJob, poolFields } from "./messages.ts";
import { Method } from "./methods.ts";
import { withByte } from "./nonce.ts";
import type { Upstream } from "./upstream.ts";

/**
 * Pool jobs kept per lane for late shares, at most: pools keep about four per session (older ones
 * answer "Invalid job id"), so keeping more would only forward shares the pool refuses. Fewer stay
 * at a pool's usual pace: the newest two, and an older one only while the job after it is younger
 * than the late-share grace (oldestMayGo, miner-jobs.ts). In Efficient mode a lane is one miner's,
 * so at a job every 30 s a miner holds two pool jobs, not four.
 */
const POOL_JOBS_KEPT = 4;
/** Values of blob[42]: how many miners can mine one pool job at once. */
export const BYTES_PER_JOB = 256;

/** The part of a lane a job needs, kept as an interface so Job does not depend on Lane. */
export interface JobOrigin {
  readonly id: number;
  readonly target: string;
  /**
   * the lane's pool jobs, oldest first, kept by the JobTable on the lane itself: a table of lists
   * by lane id cost Efficient mode a Map entry per miner
   */
  poolJobs: LaneJob[] | null;
}

const JOB_HEAD = new LinePart(`{"jsonrpc":"2.0","method":"${Method.JOB}","params":{"blob":"`);
const JOB_ID = new LinePart(`","job_id":"`);

/**
 * A job line's fields after the job id, as the pool sent them: the same for every miner given pool
 * jobs of one target, height and seed. In Efficient mode each miner's session has a pool job of its
 * own (with its own blob), one after another: the last rest made is given again while they match.
 */
let restJob: PoolJob | null = null;
let rest = new LinePart("");

function restOf(job: PoolJob): LinePart {
  const last = restJob;
  if (
    last === null ||
    (last !== job &&
      (last.target !== job.target ||
        last.algo !== job.algo ||
        last.height !== job.height ||
        last.seedHash !== job.seedHash))
  ) {
    // `",` closes the job id; the fields' JSON without its opening brace, then the line's, follow
    rest = new LinePart(`",${JSON.stringify(poolFields(job)).slice(1)}}\n`);
  }
  restJob = job;
  return rest;
}

export class Job {
  constructor(
    readonly jobId: string,
    readonly origin: JobOrigin,
    readonly upstream: Upstream,
    readonly source: PoolJob,
    /** blob[42] as two hex digits: every share for this job must carry it as the nonce's top byte */
    readonly byte: string,
  ) {}

  get difficulty(): number {
    return this.source.difficulty;
  }

  /** The miner's blob: the pool's with this miner's byte (unchanged for an unsplittable job). */
  get blob(): string {
    return this.source.splittable ? withByte(this.source.blob, this.byte) : this.source.blob;
  }

  /**
   * The job pushed to its miner, with `jobParams`'s fields in its order, joined (joined-line.ts): the
   * blob and job id are checked hex and need no escaping.
   */
  line(): JoinedLine {
    return joinedLine()
      .part(JOB_HEAD)
      .text(this.blob)
      .part(JOB_ID)
      .text(this.jobId)
      .part(restOf(this.source));
  }
}

/** A pool job a lane was given, the proxy jobs issued for it, when the first went out. */
export interface LaneJob {
  readonly source: PoolJob;
  readonly jobs: Job[];
  readonly sentAt: number;
}

/** All live jobs of a port: the pool jobs each lane keeps, every byte given out. */
export class JobTable {
  private readonly jobs = new JobIndex<Job>();
  private seq = 0;

  /**
   * Reserves the next byte of `source` for one miner, or null when every byte is given (an
   * unsplittable job has one: the pool's).
   */
  issue(origin: JobOrigin, upstream: Upstream, source: PoolJob): Job | null {
    const limit = source.splittable ? BYTES_PER_JOB : 1;
    if (source.nextByte >= limit) return null;
    const b = source.splittable ? source.nextByte : source.fixedByte;
    source.nextByte++;
    const id = (++this.seq).toString(16);
    // the byte's digits from the table made once, not a string per job and miner
    const job = new Job(id, origin, upstream, source, slotHex(b));
    this.jobs.add(job);
    this.entryFor(origin, source).jobs.push(job);
    return job;
  }

  private entryFor(origin: JobOrigin, source: PoolJob): LaneJob {
    origin.poolJobs ??= [];
    const list = origin.poolJobs;
    for (let i = list.length - 1; i >= 0; i--)
      if ((list[i] as LaneJob).source === source) return list[i] as LaneJob;
    const now = Date.now();
    const entry: LaneJob = { source, jobs: [], sentAt: now };
    list.push(entry);
    while (oldestMayGo(list, now, POOL_JOBS_KEPT))
      for (const job of list.shift()?.jobs ?? []) this.jobs.remove(job);
    return entry;
  }

  get(jobId: string): Job | undefined {
    return this.jobs.find(jobId);
  }

  dropLane(origin: JobOrigin): void {
    for (const e of origin.poolJobs ?? []) for (const job of e.jobs) this.jobs.remove(job);
    origin.poolJobs = null;
  }

  get size(): number {
    return this.jobs.size;
  }
}
