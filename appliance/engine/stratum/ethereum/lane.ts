/**
 * Lane: one Ethereum pool session kept alive for a target (the main pool or a fee wallet) in one
 * dialect, with the miners mining on it now (reconnecting, rehoming and waiting are PoolLane's). It
 * re-authorizes its users on every new session, turns pool work into port-unique EthJobs and hands
 * them to its miners.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { PoolLane, type PoolLaneHost } from "../pool-lane.ts";
import { EthJob } from "./job.ts";
import type { Dialect } from "./methods.ts";
import { EthUpstream, type UpstreamHandler, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner {
  readonly slot: number;
  onLaneJob(lane: Lane, job: EthJob): void;
  /** a new session replaced the old one (its ES1 prefix may differ) */
  onLaneSession(lane: Lane, upstream: EthUpstream): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
  /** a fee lane's session ended: its work is gone until it reconnects */
  onLaneDown(lane: Lane): void;
}

export interface LaneHost extends PoolLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
  log(level: LogLevel, message: string): void;
}

export class Lane extends PoolLane<EthUpstream, EthJob, LaneMiner> implements UpstreamHandler {
  private readonly users = new Map<string, string>();

  constructor(
    private readonly host: LaneHost,
    target: string,
    readonly dialect: Dialect,
    shared: boolean,
    /** the one worker shares go up as on a shared lane, and an ETHPROXY lane's login */
    readonly user: string | null,
    readonly password: string,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
  ) {
    super(host, target, shared);
    if (user !== null && dialect === "nicehash") this.users.set(user, password);
  }

  protected newSession(endpoint: Endpoint): EthUpstream {
    return new EthUpstream(endpoint, this.host.upstreamOptions(this), this);
  }

  protected minersDown(): void {
    for (const m of [...this.miners]) m.onLaneDown(this);
  }

  /** Resolves true once the first session has logged in (ETHPROXY) or subscribed (ES1). */
  whenSubscribed(timeoutMs: number): Promise<boolean> {
    return this.readyOnce ? Promise.resolve(true) : this.waitFor(timeoutMs);
  }

  /** ES1: authorizes a user on this and every later session. */
  async addUser(user: string, password: string): Promise<boolean> {
    this.users.set(user, password);
    const u = this.upstream;
    if (u === null || !u.isReady) return false;
    return u.authorize(user, password);
  }

  onSubscribed(u: EthUpstream): void {
    if (u !== this.upstream) return;
    if (this.shared && this.dialect === "nicehash" && u.extranonce.length > 4) {
      // a miner's prefix is the session's prefix and a slot byte, at most 3 bytes together
      this.host.log(
        "error",
        `${u.label}: extranonce prefix ${u.extranonce} is too long to share the session`,
      );
      u.close("extranonce prefix too long to share");
      return;
    }
    this.sessionSince = Date.now();
    for (const [user, password] of this.users) void u.authorize(user, password);
    if (this.readyOnce) for (const m of this.miners) m.onLaneSession(this, u);
    this.readyOnce = true;
    this.settle(true);
  }

  onWork(u: EthUpstream, work: UpstreamWork): void {
    if (u !== this.upstream) return;
    this.resetBackoff();
    const first = this.current === null;
    const job = new EthJob(this, u, work);
    this.current = job;
    for (const m of this.miners) m.onLaneJob(this, job);
    if (first) for (const m of [...this.waiting]) m.onLaneReady(this);
  }
}
