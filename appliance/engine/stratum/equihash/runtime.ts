/**
 * The Equihash family's side of a running port: its miners, the lanes they mine on (dedicated per
 * miner in Efficient mode, shared in Pool mode, shared per fee wallet) and the slot bytes that let
 * one pool session carry 256 miners, each under the session's NONCE_1 followed by its slot. The
 * port's currency gives the solution length its shares are checked against (params.ts).
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { MAIN } from "../../../stats/work-split.ts";
import { joinUser } from "../../rewrite.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { FamilyRuntime, MinerConnection, PortContext } from "../family.ts";
import { PortView } from "../port-view.ts";
import { SlotBytes } from "../slot-bytes.ts";
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import { paramsOf, solutionBytes } from "./params.ts";
import { EqMinerSession, type MinerHost } from "./session.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** The shared sessions of one target, 256 miners each by slot byte. */
type SharedLanes = SlotLanes<Lane, LaneMiner>;

/** Distinct once-only log messages remembered per port (a bound, not an expected count). */
const MAX_LOGGED_ONCE = 1024;

export class EquihashRuntime extends PortView implements FamilyRuntime, MinerHost, LaneHost {
  readonly miners = new Set<EqMinerSession>();
  /** bytes of a solution on this port's coin, or null when the coin's parameters are not known */
  readonly solutionBytes: number | null;
  private poolMain: SharedLanes | null = null;
  private readonly feeSources = new Map<string, SharedLanes>();
  private readonly dedicated = new Set<Lane>();
  private readonly slots = new SlotBytes();
  private readonly loggedOnce = new Set<string>();

  constructor(ctx: PortContext) {
    super(ctx);
    const p = paramsOf(ctx.config.currency);
    this.solutionBytes = p === null ? null : solutionBytes(p);
  }

  logOnce(key: string, level: LogLevel, message: string): void {
    if (this.loggedOnce.has(key) || this.loggedOnce.size >= MAX_LOGGED_ONCE) return;
    this.loggedOnce.add(key);
    this.ctx.log(level, message);
  }

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string): MinerConnection {
    const miner = new EqMinerSession(this, socket, ip, this.slots.take());
    this.miners.add(miner);
    return miner;
  }

  /** Pool mode opens its shared main session when the first miner subscribes. */
  start(): void {}

  stop(): void {
    for (const m of [...this.miners]) m.close("port stopped");
    this.poolMain?.close();
    this.poolMain = null;
    for (const s of this.feeSources.values()) s.close();
    this.feeSources.clear();
    for (const l of this.dedicated) l.close();
    this.dedicated.clear();
  }

  rehomeMain(reason: string): void {
    for (const l of this.dedicated) l.rehome(reason);
    this.poolMain?.rehome(reason);
  }

  refreshFee(): void {
    for (const m of this.miners) m.refreshFee();
  }

  sweep(now: number): void {
    for (const [key, s] of this.feeSources) {
      s.sweep(now, this.ctx.timing.feeIdleMs);
      if (s.sessions === 0) this.feeSources.delete(key);
    }
  }

  get online(): number {
    let n = 0;
    for (const m of this.miners) if (m.state === "authorized") n++;
    return n;
  }

  get connected(): number {
    return this.miners.size;
  }

  sessionCounts(): { main: number; fee: number } {
    let fee = 0;
    for (const s of this.feeSources.values()) fee += s.sessions;
    return { main: this.dedicated.size + (this.poolMain?.sessions ?? 0), fee };
  }

  // ---- MinerHost ----

  mainLane(miner: EqMinerSession): Lane | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) {
      if (this.poolMain === null) {
        const c = this.ctx.config;
        const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
        this.poolMain = new SlotLanes(() => new Lane(this, MAIN, true, user));
      }
      return this.poolMain.leaseFor(miner);
    }
    const lane = new Lane(this, MAIN, false, null, miner.agent || null);
    this.dedicated.add(lane);
    lane.open();
    return lane;
  }

  feeLane(miner: EqMinerSession, key: string): Lane | null {
    const target = this.ctx.fee.target(key);
    if (target === undefined || target.endpoint === null) return null;
    let source = this.feeSources.get(key);
    if (source === undefined) {
      const user = target.user;
      source = new SlotLanes(() => new Lane(this, key, true, user));
      this.feeSources.set(key, source);
    }
    return source.leaseFor(miner);
  }

  releaseMiner(miner: EqMinerSession): void {
    if (this.miners.delete(miner)) {
      this.slots.give(miner.slot);
      this.ctx.connectionClosed(miner.ip);
    }
    this.poolMain?.release(miner);
    for (const s of this.feeSources.values()) s.release(miner);
    if (miner.main && !miner.main.shared) this.dedicated.delete(miner.main);
  }

  // ---- LaneHost ----

  upstreamOptions(lane: Lane): UpstreamOptions {
    return {
      agent: this.ctx.agentFor(lane.agent),
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }

  endpointFor(lane: Lane): Endpoint | null {
    if (lane.target === MAIN) return this.ctx.mainEndpoint();
    return this.ctx.fee.target(lane.target)?.endpoint ?? null;
  }

  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void {
    if (lane.shared || !healthy)
      this.log(
        "warn",
        `upstream ${endpointText(endpoint)} (${lane.target === MAIN ? "main" : "fee"}): ${reason}`,
      );
    if (lane.target === MAIN) this.ctx.mainDown(endpoint, reason, healthy);
  }
}
