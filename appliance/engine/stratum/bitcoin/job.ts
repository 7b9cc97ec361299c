/**
 * Job: what the proxy sent a miner, under a proxy job id unique on the port, so that ids of
 * different upstreams never collide and a late share finds the session that issued its job.
 */

import { type JoinedLine, joinedLine, LinePart } from "../../transport/joined-line.ts";
import type { LineWriter } from "../../transport/line-writer.ts";
import { JobIndex } from "../job-index.ts";
import { type Framing, fitsUpstream, padFor } from "./framing.ts";
import type { Notify } from "./messages.ts";
import { Method } from "./methods.ts";
import type { Upstream, UpstreamJob } from "./upstream.ts";

/**
 * At most this many jobs per dedicated lane for late shares (older ones answer "stale"). A miner
 * returning from a fee visit gets a re-issue of the main job, and shares for the job it left may
 * still be on the wire, so a few re-issues must fit besides the pool's current and previous job.
 * Shared lanes may keep more, because every miner returning to one may hold its own re-issue.
 */
export const JOBS_PER_LANE = 6;
/**
 * Below the cap, a lane keeps only the jobs still mined or left within the grace, and its newest
 * two: a job nobody has mined for longer can only get a share from a miner that ignored the jobs
 * after it. With every session keeping six, a farm on a pool sending a job every 30 s held six
 * jobs per miner within three minutes (about 1 KB each miner in Efficient mode).
 */
const JOBS_ALWAYS_KEPT = 2;
/** How long a job stays preferred over eviction after its last miner moved to other work. */
const LATE_SHARE_GRACE_MS = 2_000;
export const jobsPerSharedLane = (miners: number): number => 16 + 2 * miners;

/**
 * The parts of a notify line (as `requestLine(null, Method.NOTIFY, params)` writes it) that are
 * the same for every session given one pool notify: from the job id to the end of coinb1, and
 * coinb2 with the rest, with the pool's ntime, by clean flag. The head before the job id is a
 * constant. Between them come the session's extranonce1 and pad when the miner is re-framed.
 */
interface NotifyParts {
  readonly body: LinePart;
  readonly end: LinePart;
  readonly cleanEnd: LinePart;
}
const NOTIFY_HEAD = new LinePart(`{"id":null,"method":"${Method.NOTIFY}","params":["`);
const notifyParts = new WeakMap<Notify, NotifyParts>();

const notifyTail = (n: Notify, ntime: string, clean: boolean): string =>
  `",${JSON.stringify([n.merkleBranch, n.version, n.nbits, ntime, clean]).slice(1)}}\n`;

function partsOf(n: Notify): NotifyParts {
  let parts = notifyParts.get(n);
  if (parts === undefined) {
    parts = {
      body: new LinePart(`","${n.prevHash}","${n.coinb1}`),
      end: new LinePart(n.coinb2 + notifyTail(n, n.ntime, false)),
      cleanEnd: new LinePart(n.coinb2 + notifyTail(n, n.ntime, true)),
    };
    notifyParts.set(n, parts);
  }
  return parts;
}

/** The part of a lane a job needs: kept as an interface so Job does not depend on Lane. */
export interface JobOrigin {
  readonly id: number;
  readonly target: string;
  /** shared lanes send one job to many miners: worth caching its notify line */
  readonly shared: boolean;
  /** the worker shares go up as on a shared lane; null: the miner's own upstream user */
  readonly user: string | null;
  /**
   * the lane's live jobs, oldest first, kept by the JobTable on the lane itself: a table of lists by
   * lane id cost Efficient mode a Map entry per miner
   */
  issued: Job[] | null;
}

export class Job {
  /** miners whose latest job this is: evicted last, since they are still mining it */
  private holders = 0;
  /** when the last holder moved on; its shares found before the move are still arriving */
  private releasedAt = 0;

  hold(): void {
    this.holders++;
  }

  release(now: number): void {
    if (--this.holders <= 0) {
      this.holders = 0;
      this.releasedAt = now;
    }
  }

  /** Still mined, or left so recently that its late shares may still come. */
  busy(now: number): boolean {
    return this.holders > 0 || now - this.releasedAt < LATE_SHARE_GRACE_MS;
  }
  /**
   * Notify lines by miner width and clean flag (index width · 2 + clean), made on first use: a
   * shared lane sends one job to many miners, and they are mostly of one or two widths.
   */
  private lines: string[] | null = null;

  constructor(
    readonly jobId: string,
    readonly origin: JobOrigin,
    readonly upstream: Upstream,
    readonly source: UpstreamJob,
    readonly framing: Framing,
    /** the first pad byte (reframe only): a re-issue changes it to give the same miners fresh work */
    readonly generation: number,
    readonly ntimeRoll: number,
  ) {}

  get difficulty(): number {
    return this.source.difficulty;
  }

  get versionMask(): number {
    return this.source.versionMask;
  }

  get ntime(): string {
    const t = Number.parseInt(this.source.notify.ntime, 16) + this.ntimeRoll;
    return (t >>> 0).toString(16).padStart(8, "0");
  }

  /** Whether a re-framed miner of `width` bytes can mine this job (a passthrough job fits its own miner). */
  fits(width: number): boolean {
    return this.framing !== "reframe" || fitsUpstream(this.source.extranonce2Size, width);
  }

  /** The pad that follows the miner's extranonce2 of `width` bytes upstream (reframe only). */
  padOf(width: number): string {
    return this.framing === "reframe" ? padFor(this.source.extranonce2Size, width, this.generation) : "";
  }

  /**
   * Sends a miner of `width` bytes its notify. A shared lane's job goes to many miners, so its line
   * is made once per width and clean flag and kept; a miner's own session's goes to it alone, and is
   * written joined from the parts that the sessions given the same pool notify share.
   */
  writeNotify(out: LineWriter, clean: boolean, width: number): void {
    if (!this.origin.shared) {
      out.writeJoined(this.joinNotify(clean, width));
      return;
    }
    const at = width * 2 + (clean ? 1 : 0);
    let line = this.lines?.[at];
    if (line === undefined) {
      line = this.joinNotify(clean, width).toString();
      this.lines ??= [];
      this.lines[at] = line;
    }
    out.write(line);
  }

  /**
   * Joined from the pool's parts instead of stringified: every part is checked hex (parseNotify, the
   * subscribe result), so none needs escaping.
   */
  private joinNotify(clean: boolean, width: number): JoinedLine {
    const n = this.source.notify;
    const parts = partsOf(n);
    const line = joinedLine().part(NOTIFY_HEAD).text(this.jobId).part(parts.body);
    if (this.framing === "reframe") line.text(this.source.extranonce1).text(`","`).text(this.padOf(width));
    else line.text(`","`);
    if (this.ntimeRoll === 0) return line.part(clean ? parts.cleanEnd : parts.end);
    return line.text(n.coinb2).text(notifyTail(n, this.ntime, clean));
  }

  /** extranonce2 as the upstream expects it for a miner share (the miner's width is its length). */
  upstreamExtranonce2(slot: string, minerExtranonce2: string): string {
    return this.framing === "reframe"
      ? slot + minerExtranonce2 + this.padOf(minerExtranonce2.length >> 1)
      : minerExtranonce2;
  }
}

/** All live jobs of a port, bounded per lane. */
export class JobTable {
  private readonly jobs = new JobIndex<Job>();
  private seq = 0;

  issue(
    origin: JobOrigin,
    upstream: Upstream,
    source: UpstreamJob,
    framing: Framing,
    generation: number,
    ntimeRoll: number,
    /** a job that must survive eviction (the lane's current one, while re-issues pile up) */
    keep: Job | null,
    cap = JOBS_PER_LANE,
  ): Job {
    const job = new Job((++this.seq).toString(16), origin, upstream, source, framing, generation, ntimeRoll);
    this.jobs.add(job);
    origin.issued ??= [];
    const lane = origin.issued;
    lane.push(job);
    this.dropIdle(lane, keep);
    while (lane.length > cap) this.evictOne(lane, keep);
    return job;
  }

  /** Jobs nobody mines any more, beyond the newest two and `keep`. */
  private dropIdle(lane: Job[], keep: Job | null): void {
    if (lane.length <= JOBS_ALWAYS_KEPT) return;
    const now = Date.now();
    let kept = 0;
    const last = lane.length - JOBS_ALWAYS_KEPT;
    for (let i = 0; i < lane.length; i++) {
      const job = lane[i] as Job;
      if (i < last && job !== keep && !job.busy(now)) this.jobs.remove(job);
      else lane[kept++] = job;
    }
    lane.length = kept;
  }

  /** The oldest job nobody mines (else the oldest), never `keep` nor the newest. */
  private evictOne(lane: Job[], keep: Job | null): void {
    const now = Date.now();
    let at = -1;
    let fallback = -1;
    for (let i = 0; i < lane.length - 1; i++) {
      const job = lane[i] as Job;
      if (job === keep) continue;
      if (fallback < 0) fallback = i;
      if (!job.busy(now)) {
        at = i;
        break;
      }
    }
    const i = at >= 0 ? at : fallback;
    this.jobs.remove(lane.splice(Math.max(i, 0), 1)[0] as Job);
  }

  get(jobId: string): Job | undefined {
    return this.jobs.find(jobId);
  }

  /** A clean job (new block): the pool answers "stale" to everything older, so forget it now. */
  dropOlder(origin: JobOrigin, keep: Job): void {
    const lane = origin.issued;
    if (lane === null) return;
    for (const job of lane) if (job !== keep) this.jobs.remove(job);
    lane.length = 0;
    lane.push(keep);
  }

  dropLane(origin: JobOrigin): void {
    for (const job of origin.issued ?? []) this.jobs.remove(job);
    origin.issued = null;
  }

  get size(): number {
    return this.jobs.size;
  }
}
