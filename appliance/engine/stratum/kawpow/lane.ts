/**
 * Lane: one KawPow pool session kept alive for a target (the main pool or a fee wallet), with the
 * miners mining on it now. It reconnects on its own with backoff, authorizes its users again on
 * every new session, turns pool work into port-unique KawJobs and hands them to its miners.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { MAIN } from "../../../stats/work-split.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { KawJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES } from "./methods.ts";
import { KawUpstream, type UpstreamHandler, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  readonly slot: number;
  onLaneJob(lane: Lane, job: KawJob): void;
  /** a new session replaced the old one (its nonce prefix may differ) */
  onLaneSession(lane: Lane, upstream: KawUpstream): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
  /** a fee lane's session ended: its work is gone until it reconnects */
  onLaneDown(lane: Lane): void;
}

export interface LaneHost {
  upstreamOptions(lane: Lane): UpstreamOptions;
  endpointFor(lane: Lane): Endpoint | null;
  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void;
  log(level: LogLevel, message: string): void;
  readonly backoffMs: number;
}

const MAX_BACKOFF_MS = 30_000;
/** how long a replaced session may stay open to answer shares already sent */
const RETIRE_GRACE_MS = 10_000;

export class Lane implements UpstreamHandler {
  upstream: KawUpstream | null = null;
  current: KawJob | null = null;
  readonly miners = new Set<LaneMiner>();
  /** shared lanes: slot → miner (each miner's prefix is the session's prefix ‖ its slot) */
  readonly slots = new Map<number, LaneMiner>();
  readonly waiting = new Set<LaneMiner>();
  /** when the current session started; hashrate protection looks at it */
  sessionSince = 0;
  lastActive = Date.now();
  private readonly users = new Map<string, string>();
  private closed = false;
  private backoff: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private subscribedOnce = false;
  private subscribers: Array<(ok: boolean) => void> = [];

  constructor(
    private readonly host: LaneHost,
    /** "main" or a fee wallet key */
    readonly target: string,
    readonly shared: boolean,
    /** the one worker shares go up as on a shared lane */
    readonly user: string | null,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
  ) {
    this.backoff = host.backoffMs;
    if (user !== null) this.users.set(user, "x");
  }

  open(): void {
    this.connect();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves true once the first session has subscribed (its nonce prefix is known). */
  whenSubscribed(timeoutMs: number): Promise<boolean> {
    if (this.subscribedOnce) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        const i = this.subscribers.indexOf(done);
        if (i >= 0) this.subscribers.splice(i, 1);
        resolve(ok);
      };
      this.subscribers.push(done);
    });
  }

  /** Authorizes a user on this and every later session. */
  async addUser(user: string, password: string): Promise<boolean> {
    this.users.set(user, password);
    const u = this.upstream;
    if (u === null || !u.isReady) return false;
    return u.authorize(user, password);
  }

  /** Reconnect now (failover, fail-back, address change); miners stay and get the new session's work. */
  rehome(reason: string): void {
    if (this.closed) return;
    this.backoff = this.host.backoffMs;
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
    // shares already sent still get their answer (and their place in the ledgers)
    this.upstream?.retire("lane closed", RETIRE_GRACE_MS);
    this.upstream = null;
    this.current = null;
    for (const r of [...this.subscribers]) r(false);
  }

  private connect(): void {
    if (this.closed) return;
    const ep = this.host.endpointFor(this);
    if (ep === null) {
      this.scheduleRetry();
      return;
    }
    const u = new KawUpstream(ep, this.host.upstreamOptions(this), this);
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

  onSubscribed(u: KawUpstream): void {
    if (u !== this.upstream) return;
    if (this.shared && u.extranonce.length > MAX_SHARED_POOL_PREFIX_BYTES * 2) {
      this.host.log(
        "error",
        `${u.label}: nonce prefix ${u.extranonce} is too long to share the session (a miner takes at most 3 bytes)`,
      );
      u.close("nonce prefix too long to share");
      return;
    }
    this.sessionSince = Date.now();
    for (const [user, password] of this.users) void u.authorize(user, password);
    if (this.subscribedOnce) for (const m of this.miners) m.onLaneSession(this, u);
    this.subscribedOnce = true;
    for (const r of [...this.subscribers]) r(true);
    this.subscribers = [];
  }

  onWork(u: KawUpstream, work: UpstreamWork): void {
    if (u !== this.upstream) return;
    this.backoff = this.host.backoffMs;
    const first = this.current === null;
    const job = new KawJob(this, u, work);
    this.current = job;
    for (const m of this.miners) m.onLaneJob(this, job);
    if (first) for (const m of [...this.waiting]) m.onLaneReady(this);
  }

  onClosed(u: KawUpstream, reason: string, healthy: boolean): void {
    if (u !== this.upstream) return;
    this.upstream = null;
    this.current = null;
    if (this.closed) return;
    // Miners on a fee session that dropped go back to the main pool at once instead of mining
    // work nobody will take; the scheduler sends them again once the session is back.
    if (this.target !== MAIN) for (const m of [...this.miners]) m.onLaneDown(this);
    this.host.laneDown(this, u.endpoint, reason, healthy);
    this.scheduleRetry();
  }
}
