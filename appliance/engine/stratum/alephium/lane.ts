/**
 * Lane: one Alephium pool session kept alive for a target (the main pool or a fee wallet) under one
 * user, with the miners mining on it now. It reconnects on its own with backoff, turns pool work into
 * port-unique AlphJobs and hands them to its miners. A shared lane (Pool mode, fee wallets) gives each
 * of its miners a slot byte after the pool's extranonce.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { MAIN } from "../../../stats/work-split.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { AlphJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES } from "./methods.ts";
import { AlphUpstream, type UpstreamHandler, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  readonly slot: number;
  onLaneJob(lane: Lane, job: AlphJob): void;
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
let nextLaneId = 1;

export class Lane implements UpstreamHandler {
  readonly id = nextLaneId++;
  upstream: AlphUpstream | null = null;
  current: AlphJob | null = null;
  readonly miners = new Set<LaneMiner>();
  /** shared lanes: slot → miner (each miner's prefix is the pool's extranonce ‖ its slot) */
  readonly slots = new Map<number, LaneMiner>();
  readonly waiting = new Set<LaneMiner>();
  /** when the current session started; hashrate protection looks at it */
  sessionSince = 0;
  lastActive = Date.now();
  /** why the pool refused this dedicated lane's login, once it has */
  refusal: string | null = null;
  private closed = false;
  private backoff: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private readyOnce = false;
  private waiters: Array<(ok: boolean) => void> = [];

  constructor(
    private readonly host: LaneHost,
    /** "main" or a fee wallet key */
    readonly target: string,
    readonly shared: boolean,
    /** the session's one login: the miner's rewritten name, the unified identity or the fee wallet */
    readonly user: string,
    readonly password: string,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
  ) {
    this.backoff = host.backoffMs;
  }

  open(): void {
    this.connect();
  }

  /** Resolves true once the first session is logged in with work to give, false if it never is. */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.current !== null) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        const i = this.waiters.indexOf(done);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(ok);
      };
      this.waiters.push(done);
    });
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
    for (const w of [...this.waiters]) w(false);
  }

  private connect(): void {
    if (this.closed) return;
    const ep = this.host.endpointFor(this);
    if (ep === null) {
      this.scheduleRetry();
      return;
    }
    const u = new AlphUpstream(ep, this.host.upstreamOptions(this), this);
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

  onReady(u: AlphUpstream): void {
    if (u !== this.upstream) return;
    this.sessionSince = Date.now();
  }

  onWork(u: AlphUpstream, work: UpstreamWork): void {
    if (u !== this.upstream) return;
    if (this.shared && work.extranonce.length > MAX_SHARED_POOL_PREFIX_BYTES * 2) {
      this.host.log("error", `${u.label}: extranonce ${work.extranonce} is too long to share the session`);
      u.close("extranonce too long to share");
      return;
    }
    this.backoff = this.host.backoffMs;
    this.readyOnce = true;
    const job = new AlphJob(this, u, work.templates, work.difficulty, work.extranonce);
    this.current = job;
    for (const m of this.miners) m.onLaneJob(this, job);
    for (const w of [...this.waiters]) w(true);
    if (this.waiting.size > 0) for (const m of [...this.waiting]) m.onLaneReady(this);
  }

  onClosed(u: AlphUpstream, reason: string, healthy: boolean, refused: boolean): void {
    if (u !== this.upstream) return;
    this.upstream = null;
    this.current = null;
    if (this.closed) return;
    if (refused && !this.shared && !this.readyOnce) {
      // A miner's own login refused (its wallet, say): the miner is told; the pool is not down.
      this.refusal = reason;
      this.close();
      return;
    }
    // Miners on a fee session that dropped go back to the main pool at once instead of mining
    // work nobody will take; the scheduler sends them again once the session is back.
    if (this.target !== MAIN) for (const m of [...this.miners]) m.onLaneDown(this);
    // A refusal of a shared session's login is the operator's to fix: logged, retried with backoff.
    this.host.laneDown(this, u.endpoint, reason, healthy || refused);
    this.scheduleRetry();
  }
}
