/**
 * Lane: one upstream session kept alive for a target (the main pool or a fee wallet), with the
 * miners currently mining on it. It reconnects on its own with backoff, re-authorizes its users on
 * every new session, turns pool jobs into port-unique Jobs and hands them to its miners.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { FewMap } from "../../few-map.ts";
import { Roster } from "../../roster.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { type LaneWaiter, LaneWaiters } from "../lane-waiters.ts";
import { type AuthorizeWaiter, authorizeOn } from "../pool-session.ts";
import { SlotTable } from "../slot-table.ts";
import {
  type Framing,
  fitsUpstream,
  MAX_NTIME_ROLL,
  MINER_EXTRANONCE2_BYTES,
  REFRAME_MIN_EXTRANONCE2,
} from "./framing.ts";
import { JOBS_PER_LANE, type Job, type JobTable, jobsPerSharedLane } from "./job.ts";
import { Upstream, type UpstreamHandler, type UpstreamJob, type UpstreamOptions } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  readonly slot: number;
  /** its place in the miners of the lane it mines on */
  laneIndex: number;
  /** a new job on the lane this miner mines on */
  onLaneJob(lane: Lane, job: Job): void;
  /** a new session replaced the old one (the extranonce1 may differ) */
  onLaneSession(lane: Lane, upstream: Upstream): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
}

/** Learns that a lane's first session has subscribed (its extranonce sizes are known), or that the lane closed first. */
export interface LaneHost {
  readonly jobs: JobTable;
  /** `agent`: what the session presents in mining.subscribe (null: the port's default) */
  upstreamOptions(agent: string | null): UpstreamOptions;
  endpointFor(lane: Lane): Endpoint | null;
  laneUp(lane: Lane): void;
  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void;
  laneVersionMask(lane: Lane): void;
  log(level: LogLevel, message: string): void;
  /** logs a message once per key (the port's lifetime) */
  logOnce(key: string, level: LogLevel, message: string): void;
  readonly backoffMs: number;
}

const MAX_BACKOFF_MS = 30_000;
/** how long a replaced session may stay open to answer shares already sent */
const RETIRE_GRACE_MS = 10_000;
let nextLaneId = 1;
/** Visits of a lane's miners: functions shared by every lane, not closures per job. */
const tellJob = (m: LaneMiner, lane: Lane, job: Job): void => m.onLaneJob(lane, job);
const tellSession = (m: LaneMiner, lane: Lane, u: Upstream): void => m.onLaneSession(lane, u);

export class Lane implements UpstreamHandler {
  readonly id = nextLaneId++;
  upstream: Upstream | null = null;
  current: Job | null = null;
  /** miners that receive this lane's jobs now */
  readonly miners = new Roster<"laneIndex", LaneMiner>("laneIndex");
  private slotMap: SlotTable<LaneMiner> | null = null;
  private waitSet: Set<LaneMiner> | null = null;
  /** when the current session started; hashrate protection looks at it */
  sessionSince = 0;
  /**
   * the extranonce2 size of the last session that subscribed: what a tunnel stream joining a shared
   * lane is sized by, even while the lane is between sessions
   */
  extranonce2Size = 0;
  lastActive = Date.now();
  private readonly users = new FewMap<string, string>();
  private closed = false;
  private backoff: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private redirect: Endpoint | null = null;
  private reissues = 0;
  private subscribedOnce = false;
  private subscribers: LaneWaiters | null = null;
  /** its live jobs, oldest first (the JobTable keeps them here) */
  issued: Job[] | null = null;

  constructor(
    private readonly host: LaneHost,
    /** "main" or a fee wallet key */
    readonly target: string,
    readonly shared: boolean,
    public framing: Framing | "auto",
    /** on shared lanes, the one worker every share is submitted as */
    readonly user: string | null = null,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
    /**
     * "auto" framing re-frames when the miner can be given this many extranonce2 bytes after its
     * slot byte, else passes the pool's extranonce through: 3 for a miner, 4 for a tunnel stream
     * (framing.ts), which then gets more from passthrough than re-framing could give it.
     */
    private readonly minWidth = MINER_EXTRANONCE2_BYTES,
  ) {
    this.backoff = host.backoffMs;
  }

  open(): void {
    this.connect();
  }

  /** slot leases on a shared lane: a miner keeps its slot while connected (made on first use) */
  get slots(): SlotTable<LaneMiner> {
    this.slotMap ??= new SlotTable();
    return this.slotMap;
  }

  /** miners that asked to move here before the lane had a job (made on first use) */
  get waiting(): Set<LaneMiner> {
    this.waitSet ??= new Set();
    return this.waitSet;
  }

  unwait(m: LaneMiner): void {
    this.waitSet?.delete(m);
  }

  get waitingCount(): number {
    return this.waitSet?.size ?? 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** true once a session has subscribed: the extranonce sizes are known */
  get hasSubscribed(): boolean {
    return this.subscribedOnce;
  }

  /** `w` is told when the first session has subscribed, or that the lane closed first. */
  awaitSubscribed(w: LaneWaiter): void {
    if (this.closed) {
      w.onLaneUsable(this, false);
      return;
    }
    this.subscribers ??= new LaneWaiters();
    this.subscribers.add(w);
  }

  forget(w: LaneWaiter): void {
    this.subscribers?.forget(w);
  }

  private tellSubscribed(ok: boolean): void {
    const waiters = this.subscribers;
    this.subscribers = null;
    waiters?.tell(this, ok);
  }

  /**
   * Authorizes a user on this and every later session; `waiter` learns the pool's verdict on this
   * one (false at once while the lane has no ready session).
   */
  addUser(user: string, password: string, waiter: AuthorizeWaiter | null = null): void {
    this.users.set(user, password);
    const u = this.upstream;
    if (u?.isReady) u.authorize(user, password, waiter);
    else waiter?.onPoolAuthorize(user, false);
  }

  hasUser(user: string): boolean {
    return this.upstream?.authorized.has(user) ?? false;
  }

  /**
   * Work a miner of `width` bytes has not mined yet: the current job, or — when the miner was
   * already given this pool job — a re-issue with a fresh coinbase (pad generation, when its pad
   * has a byte) or a later ntime.
   */
  freshJob(lastGiven: UpstreamJob | undefined, width: number): Job | null {
    const cur = this.current;
    if (cur === null) return null;
    if (lastGiven !== cur.source) return cur;
    if (cur.upstream !== this.upstream || !cur.upstream.isReady) return null;
    const n = ++this.reissues;
    const padded = fitsUpstream(cur.source.extranonce2Size, width + 1);
    if (cur.framing === "reframe" && padded && n < 256)
      return this.host.jobs.issue(this, cur.upstream, cur.source, cur.framing, n, 0, cur, this.jobCap());
    if (n <= MAX_NTIME_ROLL)
      return this.host.jobs.issue(
        this,
        cur.upstream,
        cur.source,
        cur.framing,
        cur.generation,
        n,
        cur,
        this.jobCap(),
      );
    return null;
  }

  private jobCap(): number {
    return this.shared ? jobsPerSharedLane(this.slotMap?.size ?? 0) : JOBS_PER_LANE;
  }

  /** Reconnect now (failover, fail-back, address change); miners stay and get the new session's jobs. */
  rehome(reason: string): void {
    if (this.closed) return;
    this.backoff = this.host.backoffMs;
    this.replace(reason);
  }

  /** A new session now; the old one retires once its pending shares are answered. */
  private replace(reason: string): void {
    const old = this.upstream;
    if (old !== null) {
      this.upstream = null;
      old.retire(reason, RETIRE_GRACE_MS);
    }
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
    this.host.jobs.dropLane(this);
    this.tellSubscribed(false);
  }

  private connect(): void {
    if (this.closed) return;
    const ep = this.redirect ?? this.host.endpointFor(this);
    this.redirect = null;
    if (ep === null) {
      this.scheduleRetry();
      return;
    }
    const u = new Upstream(ep, this.host.upstreamOptions(this.agent), this);
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

  onSubscribed(u: Upstream): void {
    if (u !== this.upstream) return;
    if (this.framing === "auto")
      this.framing = fitsUpstream(u.extranonce2Size, this.minWidth) ? "reframe" : "passthrough";
    if (this.framing === "reframe" && u.extranonce2Size < REFRAME_MIN_EXTRANONCE2) {
      // Reconnecting will not widen it: say why once, and look again only at the longest backoff
      // (the pool's operator may change it), instead of retrying and logging in a loop.
      this.host.logOnce(
        `narrow ${this.target} ${u.label}`,
        "error",
        `${u.label}: extranonce2 size ${u.extranonce2Size} is too small to share the session ` +
          `(it needs ${REFRAME_MIN_EXTRANONCE2}); no miner is moved to it. If it is another Pithead's ` +
          `tunnel port, that port's pool gives fewer than ${REFRAME_MIN_EXTRANONCE2 + 1} bytes and the ` +
          `port shares its sessions (Pool mode), so it cannot give a stream more than ` +
          `${REFRAME_MIN_EXTRANONCE2 - 1} (docs/rms-tunnel.md, "Extranonce of a tunnel stream")`,
      );
      this.backoff = MAX_BACKOFF_MS;
      u.close("extranonce2 too small to share the session");
      return;
    }
    this.sessionSince = Date.now();
    this.extranonce2Size = u.extranonce2Size;
    this.reissues = 0;
    this.users.each(authorizeOn, u);
    if (this.subscribedOnce) this.miners.each(tellSession, this, u);
    this.subscribedOnce = true;
    this.tellSubscribed(true);
    this.host.laneUp(this);
  }

  onJob(u: Upstream, job: UpstreamJob): void {
    if (u !== this.upstream) return;
    if (this.framing === "reframe" && job.extranonce2Size < REFRAME_MIN_EXTRANONCE2) {
      u.close("extranonce2 shrank below what re-framing needs");
      return;
    }
    this.backoff = this.host.backoffMs;
    this.reissues = 0;
    const first = this.current === null;
    const framing = this.framing === "auto" ? "passthrough" : this.framing;
    const issued = this.host.jobs.issue(this, u, job, framing, 0, 0, null, this.jobCap());
    if (job.notify.cleanJobs) this.host.jobs.dropOlder(this, issued);
    this.current = issued;
    this.miners.each(tellJob, this, issued);
    if (first && this.waitSet !== null) for (const m of [...this.waitSet]) m.onLaneReady(this);
  }

  onVersionMask(u: Upstream): void {
    if (u === this.upstream) this.host.laneVersionMask(this);
  }

  onReconnectRequest(u: Upstream, host: string | null, port: number | null, waitMs: number): void {
    if (u !== this.upstream) return;
    this.redirect = { host: host ?? u.endpoint.host, port: port ?? u.endpoint.port, tls: u.endpoint.tls };
    this.host.log("info", `${u.label} asked to reconnect to ${this.redirect.host}:${this.redirect.port}`);
    if (waitMs > 0) {
      // The pool asked us to wait: drop the session now and come back after the wait.
      this.backoff = waitMs;
      u.close("client.reconnect from pool");
      return;
    }
    this.replace("client.reconnect from pool");
  }

  onClosed(u: Upstream, reason: string, healthy: boolean): void {
    if (u !== this.upstream) return;
    this.upstream = null;
    this.current = null;
    if (this.closed) return;
    this.host.laneDown(this, u.endpoint, reason, healthy);
    this.scheduleRetry();
  }
}
