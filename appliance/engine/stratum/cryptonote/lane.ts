/**
 * Lane: one upstream session kept alive for a target (the main pool or a fee wallet) and the miners
 * on it. It reconnects on its own with backoff, logs in again on every new session, hands each of
 * its miners the pool's current job with a byte of their own, and on a shared lane refuses pool
 * jobs that cannot be split (nonce.ts).
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { FewSet } from "../../few-map.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { type LaneWaiter, LaneWaiters } from "../lane-waiters.ts";
import { BYTES_PER_JOB, type Job, type JobTable, type LaneJob } from "./job.ts";
import type { PoolJob } from "./messages.ts";
import {
  LOGIN_REFUSED,
  Upstream,
  type UpstreamHandler,
  type UpstreamLogin,
  type UpstreamOptions,
} from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  /** a new pool job on the lane this miner mines on */
  onLaneJob(lane: Lane): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
  /** the session of the lane this miner mines on ended; its jobs can no longer be submitted */
  onLaneDown(lane: Lane): void;
}

// visitors of FewSet.each: a job reaches every miner of the lane, in Efficient mode a lane per miner
const tellJob = (_: true, m: LaneMiner, lane: Lane): void => m.onLaneJob(lane);
const tellReady = (_: true, m: LaneMiner, lane: Lane): void => m.onLaneReady(lane);
const tellDown = (_: true, m: LaneMiner, lane: Lane): void => m.onLaneDown(lane);

export interface LaneHost {
  readonly jobs: JobTable;
  /** `agent`: the miner's own on a dedicated lane, null on shared ones */
  upstreamOptions(agent: string | null): UpstreamOptions;
  endpointFor(lane: Lane): Endpoint | null;
  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void;
  log(level: LogLevel, message: string): void;
  readonly backoffMs: number;
}

const MAX_BACKOFF_MS = 30_000;
/** how long a replaced session may stay open to answer shares already sent */
const RETIRE_GRACE_MS = 10_000;
let nextLaneId = 1;

export class Lane implements UpstreamHandler {
  readonly id = nextLaneId++;
  upstream: Upstream | null = null;
  /** the pool's latest job on the live session */
  current: PoolJob | null = null;
  /** the pool jobs the port's job table keeps for this lane */
  poolJobs: LaneJob[] | null = null;
  /** miners that mine this lane's jobs now */
  readonly miners = new FewSet<LaneMiner>();
  /** miners holding a place on this lane (at most BYTES_PER_JOB), whether mining here now or not */
  readonly members = new FewSet<LaneMiner>();
  readonly waiting = new FewSet<LaneMiner>();
  /** when the current session started; hashrate protection looks at it */
  sessionSince = 0;
  lastActive = Date.now();
  /** why the last session ended, for a miner whose login waited on it */
  lastError = "";
  private closed = false;
  private backoff: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** logins waiting for the lane's first job */
  private jobWaiters: LaneWaiters | null = null;
  private refusedLogged = false;

  constructor(
    private readonly host: LaneHost,
    /** "main" or a fee wallet key */
    readonly target: string,
    readonly shared: boolean,
    private readonly login: UpstreamLogin,
    /** a dedicated lane presents its miner's agent upstream */
    private readonly agent: string | null,
  ) {
    this.backoff = host.backoffMs;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  open(): void {
    this.connect();
  }

  /** Whether a miner joining now would get a byte of the current job (true while there is none yet). */
  get hasRoom(): boolean {
    const j = this.current;
    if (j === null) return this.members.size < BYTES_PER_JOB;
    return j.nextByte < (j.splittable ? BYTES_PER_JOB : 1);
  }

  /** The current job with the next free byte, or null (no job, every byte given). */
  issue(): Job | null {
    const u = this.upstream;
    if (this.current === null || u === null) return null;
    return this.host.jobs.issue(this, u, this.current);
  }

  /**
   * `w` is told at the lane's first job, or that the lane has none to give (closed, its login
   * refused, its job not splittable). The waiter bounds its own wait, and calls `forget` when it
   * gives up.
   */
  awaitJob(w: LaneWaiter): void {
    if (this.closed) {
      w.onLaneUsable(this, false);
      return;
    }
    this.jobWaiters ??= new LaneWaiters();
    this.jobWaiters.add(w);
  }

  forget(w: LaneWaiter): void {
    this.jobWaiters?.forget(w);
  }

  private tellWaiters(ok: boolean): void {
    const waiters = this.jobWaiters;
    this.jobWaiters = null;
    waiters?.tell(this, ok);
  }

  /** Reconnect now (failover, fail-back, address change); miners stay and get the new session's job. */
  rehome(reason: string): void {
    if (this.closed) return;
    this.backoff = this.host.backoffMs;
    const old = this.upstream;
    this.upstream = null;
    this.current = null;
    old?.retire(reason, RETIRE_GRACE_MS);
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.connect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    // Shares already sent still get their answer (and their place in the ledgers).
    this.upstream?.retire("lane closed", RETIRE_GRACE_MS);
    this.upstream = null;
    this.current = null;
    this.host.jobs.dropLane(this);
    this.members.clear();
    this.miners.clear();
    this.waiting.clear();
    this.tellWaiters(false);
  }

  private connect(): void {
    if (this.closed) return;
    const ep = this.host.endpointFor(this);
    if (ep === null) {
      this.scheduleRetry();
      return;
    }
    const u = new Upstream(ep, this.host.upstreamOptions(this.agent), this.login, this);
    this.upstream = u;
    u.start();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, wait);
  }

  onJob(u: Upstream, job: PoolJob): void {
    if (u !== this.upstream) return;
    if (this.shared && !job.splittable) {
      // Sharing would hand miners a byte the pool already fixed: every share would be refused.
      if (!this.refusedLogged)
        this.host.log(
          "error",
          `${u.label}: the pool fixes the nonce's top byte (blob[42]), so its jobs cannot be shared between miners`,
        );
      this.refusedLogged = true;
      this.backoff = MAX_BACKOFF_MS;
      u.close("pool job cannot be split");
      // miners logging in are told now rather than after their wait runs out
      this.tellWaiters(false);
      return;
    }
    const first = this.current === null;
    if (first) this.sessionSince = Date.now();
    this.backoff = this.host.backoffMs;
    this.current = job;
    this.miners.each(tellJob, this);
    if (first) {
      this.tellWaiters(true);
      this.waiting.each(tellReady, this);
    }
  }

  onClosed(u: Upstream, reason: string, healthy: boolean): void {
    if (u !== this.upstream) return;
    this.upstream = null;
    this.current = null;
    this.lastError = reason;
    if (this.closed) return;
    // A miner's own session refused by the pool: its login is answered now, not after retries.
    if (!this.shared && reason.startsWith(LOGIN_REFUSED)) this.tellWaiters(false);
    this.host.laneDown(this, u.endpoint, reason, healthy);
    this.miners.each(tellDown, this);
    this.scheduleRetry();
  }
}
