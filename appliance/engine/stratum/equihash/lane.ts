/**
 * Lane: one Equihash pool session kept alive for a target (the main pool or a fee wallet), with the
 * miners mining on it now (reconnecting, rehoming and waiting are PoolLane's). It authorizes its
 * users again on every new session, refuses to share a session whose NONCE_1 leaves no room for a
 * slot byte and the miner's NONCE_2, turns pool work into port-unique EqJobs and hands them to its
 * miners.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { PoolLane, type PoolLaneHost } from "../pool-lane.ts";
import { EqJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES, MIN_NONCE2_BYTES } from "./methods.ts";
import { EqUpstream, type UpstreamHandler, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  readonly slot: number;
  onLaneJob(lane: Lane, job: EqJob): void;
  /** a new session replaced the old one (its NONCE_1 may differ) */
  onLaneSession(lane: Lane, upstream: EqUpstream): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
  /** a fee lane's session ended: its work is gone until it reconnects */
  onLaneDown(lane: Lane): void;
}

export interface LaneHost extends PoolLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
  log(level: LogLevel, message: string): void;
}

export class Lane extends PoolLane<EqUpstream, EqJob, LaneMiner> implements UpstreamHandler {
  private readonly users = new Map<string, string>();

  constructor(
    private readonly host: LaneHost,
    target: string,
    shared: boolean,
    /** the one worker shares go up as on a shared lane */
    readonly user: string | null,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
  ) {
    super(host, target, shared);
    if (user !== null) this.users.set(user, "x");
  }

  protected newSession(endpoint: Endpoint): EqUpstream {
    return new EqUpstream(endpoint, this.host.upstreamOptions(this), this);
  }

  protected minersDown(): void {
    for (const m of [...this.miners]) m.onLaneDown(this);
  }

  /** Resolves true once the first session has subscribed (its NONCE_1 is known). */
  whenSubscribed(timeoutMs: number): Promise<boolean> {
    return this.readyOnce ? Promise.resolve(true) : this.waitFor(timeoutMs);
  }

  /** Authorizes a user on this and every later session. */
  async addUser(user: string, password: string): Promise<boolean> {
    this.users.set(user, password);
    const u = this.upstream;
    if (u === null || !u.isReady) return false;
    return u.authorize(user, password);
  }

  onSubscribed(u: EqUpstream): void {
    if (u !== this.upstream) return;
    if (this.shared && u.extranonce.length > MAX_SHARED_POOL_PREFIX_BYTES * 2) {
      this.host.log(
        "error",
        `${u.label}: NONCE_1 ${u.extranonce} is too long to share the session (a slot byte and ${MIN_NONCE2_BYTES} bytes of NONCE_2 must fit in the 32-byte nonce)`,
      );
      u.close("NONCE_1 too long to share");
      return;
    }
    this.sessionSince = Date.now();
    for (const [user, password] of this.users) void u.authorize(user, password);
    if (this.readyOnce) for (const m of this.miners) m.onLaneSession(this, u);
    this.readyOnce = true;
    this.settle(true);
  }

  onWork(u: EqUpstream, work: UpstreamWork): void {
    if (u !== this.upstream) return;
    this.resetBackoff();
    const first = this.current === null;
    const job = new EqJob(this, u, work);
    this.current = job;
    for (const m of this.miners) m.onLaneJob(this, job);
    if (first) for (const m of [...this.waiting]) m.onLaneReady(this);
  }
}
