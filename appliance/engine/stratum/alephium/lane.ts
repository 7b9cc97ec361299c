/**
 * Lane: one Alephium pool session kept alive for a target (the main pool or a fee wallet) under one
 * user, with the miners mining on it now (reconnecting, rehoming and waiting are PoolLane's). It
 * turns pool work into port-unique AlphJobs and hands them to its miners. A shared lane (Pool mode,
 * fee wallets) gives each of its miners a slot byte after the pool's extranonce.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { PoolLane, type PoolLaneHost, type SlotMiner } from "../pool-lane.ts";
import { AlphJob } from "./job.ts";
import { MAX_SHARED_POOL_PREFIX_BYTES } from "./methods.ts";
import { AlphUpstream, type UpstreamHandler, type UpstreamOptions, type UpstreamWork } from "./upstream.ts";

/** A miner as a lane sees it. */
export interface LaneMiner extends SlotMiner {
  onLaneJob(lane: Lane, job: AlphJob): void;
  /** a lane this miner waited for has its first job */
  onLaneReady(lane: Lane): void;
  /** a fee lane's session ended: its work is gone until it reconnects */
  onLaneDown(lane: Lane): void;
}

/** A job for a lane's miners: one function shared by every lane, not a closure per job. */
const tellJob = (m: LaneMiner, lane: Lane, job: AlphJob): void => m.onLaneJob(lane, job);

export interface LaneHost extends PoolLaneHost<Lane> {
  upstreamOptions(lane: Lane): UpstreamOptions;
  log(level: LogLevel, message: string): void;
}

export class Lane extends PoolLane<AlphUpstream, AlphJob, LaneMiner> implements UpstreamHandler {
  constructor(
    private readonly host: LaneHost,
    target: string,
    shared: boolean,
    /** the session's one login: the miner's rewritten name, the unified identity or the fee wallet */
    readonly user: string,
    readonly password: string,
    /** a dedicated lane presents its miner's agent upstream */
    readonly agent: string | null = null,
  ) {
    super(host, target, shared);
  }

  protected newSession(endpoint: Endpoint): AlphUpstream {
    return new AlphUpstream(endpoint, this.host.upstreamOptions(this), this, this);
  }

  protected minersDown(): void {
    for (const m of [...this.miners]) m.onLaneDown(this);
  }

  /** A login is answered once a session is logged in with work to give. */
  override get usable(): boolean {
    return this.current !== null;
  }

  onReady(u: AlphUpstream): void {
    if (u === this.upstream) this.sessionSince = Date.now();
  }

  onWork(u: AlphUpstream, work: UpstreamWork): void {
    if (u !== this.upstream) return;
    if (this.shared && work.extranonce.length > MAX_SHARED_POOL_PREFIX_BYTES * 2) {
      this.host.log("error", `${u.label}: extranonce ${work.extranonce} is too long to share the session`);
      u.close("extranonce too long to share");
      return;
    }
    this.resetBackoff();
    this.readyOnce = true;
    const job = new AlphJob(this, u, work.templates, work.difficulty, work.extranonce);
    this.current = job;
    this.miners.each(tellJob, this, job);
    this.settle(true);
    if (this.waitingCount > 0) for (const m of [...this.waiting]) m.onLaneReady(this);
  }
}
