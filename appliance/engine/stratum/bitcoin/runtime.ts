/**
 * The Bitcoin family's side of a running port: its miners, the lanes they mine on (dedicated per
 * miner in Efficient and Compatible, shared in Pool mode, shared per fee wallet), the port's job
 * table and the extranonce slots that let one pool session carry 256 miners.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRegistry } from "../../../stats/device-registry.ts";
import { MAIN } from "../../../stats/work-split.ts";
import type { FeeScheduler } from "../../fee/scheduler.ts";
import type { ModeStrategy } from "../../modes/mode.ts";
import { joinUser } from "../../rewrite.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { FamilyRuntime, MinerConnection, PortContext } from "../family.ts";
import { SLOTS_PER_SESSION } from "./framing.ts";
import { JobTable } from "./job.ts";
import { Lane, type LaneHost } from "./lane.ts";
import { BIP320_MASK } from "./methods.ts";
import { type MinerHost, MinerSession } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** A miner reconnecting within this time may resume its session (keeps its extranonce1). */
const RESUME_WINDOW_MS = 10 * 60_000;
const MAX_RECENT_SESSIONS = 4096;

export class BitcoinRuntime implements FamilyRuntime, MinerHost, LaneHost {
  readonly jobs = new JobTable();
  readonly miners = new Set<MinerSession>();
  private poolMain: SharedSource | null = null;
  private readonly feeSources = new Map<string, SharedSource>();
  private readonly dedicated = new Set<Lane>();
  private readonly slotUse = new Uint16Array(SLOTS_PER_SESSION);
  /** session id → slot of recently closed re-framed sessions, for mining.subscribe resume */
  private readonly recentSessions = new Map<string, { slot: number; at: number }>();
  private slotCursor = 0;
  private knownMask = BIP320_MASK;

  constructor(private readonly ctx: PortContext) {}

  // ---- the port's context, as sessions and lanes read it ----

  get portId(): number {
    return this.ctx.portId;
  }
  get config(): Port {
    return this.ctx.config;
  }
  get category(): string {
    return this.ctx.category;
  }
  get factor(): number {
    return this.ctx.factor;
  }
  get mode(): ModeStrategy {
    return this.ctx.mode;
  }
  get fee(): FeeScheduler {
    return this.ctx.fee;
  }
  get registry(): DeviceRegistry {
    return this.ctx.registry;
  }
  get timing(): EngineTiming {
    return this.ctx.timing;
  }
  get backoffMs(): number {
    return this.ctx.timing.reconnectBackoffMs;
  }
  log(level: LogLevel, message: string): void {
    this.ctx.log(level, message);
  }
  isWalletBanned(wallet: string): boolean {
    return this.ctx.isWalletBanned(wallet);
  }

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string): MinerConnection {
    const miner = new MinerSession(this, socket, ip, this.allocSlot());
    this.miners.add(miner);
    return miner;
  }

  start(): void {
    if (this.ctx.mode.sharedMain) this.openPoolMain();
  }

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
    return { main: (this.poolMain?.sessions ?? 0) + this.dedicated.size, fee };
  }

  // ---- MinerHost ----

  versionMask(): number {
    return this.knownMask;
  }

  mainLane(miner: MinerSession): Lane | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.openPoolMain().leaseFor(miner);
    const lane = new Lane(this, MAIN, false, "auto", null, miner.agent || null);
    this.dedicated.add(lane);
    lane.open();
    return lane;
  }

  feeLane(miner: MinerSession, key: string): Lane | null {
    const target = this.ctx.fee.target(key);
    if (target === undefined || target.endpoint === null) return null;
    let source = this.feeSources.get(key);
    if (source === undefined) {
      source = new SharedSource(this, key, target.user, "x");
      this.feeSources.set(key, source);
    }
    return source.leaseFor(miner);
  }

  resumeSlot(sessionId: string, current: number): number | null {
    const r = this.recentSessions.get(sessionId);
    if (r === undefined || Date.now() - r.at > RESUME_WINDOW_MS) return null;
    this.recentSessions.delete(sessionId);
    if (r.slot === current) return current;
    if ((this.slotUse[r.slot] as number) > 0) return null;
    this.slotUse[r.slot] = 1;
    const u = this.slotUse[current] as number;
    if (u > 0) this.slotUse[current] = u - 1;
    return r.slot;
  }

  releaseMiner(miner: MinerSession): void {
    if (miner.sessionId !== "" && miner.framing === "reframe") {
      if (this.recentSessions.size >= MAX_RECENT_SESSIONS) {
        const oldest = this.recentSessions.keys().next().value;
        if (oldest !== undefined) this.recentSessions.delete(oldest);
      }
      this.recentSessions.set(miner.sessionId, { slot: miner.slot, at: Date.now() });
    }
    if (this.miners.delete(miner)) {
      const u = this.slotUse[miner.slot] as number;
      if (u > 0) this.slotUse[miner.slot] = u - 1;
      this.ctx.connectionClosed(miner.ip);
    }
    this.poolMain?.release(miner);
    for (const s of this.feeSources.values()) s.release(miner);
    if (miner.main && !miner.main.shared) this.dedicated.delete(miner.main);
  }

  // ---- LaneHost ----

  upstreamOptions(agent: string | null): UpstreamOptions {
    return {
      agent: this.ctx.agentFor(agent),
      versionRolling: true,
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }

  endpointFor(lane: Lane): Endpoint | null {
    if (lane.target === MAIN) return this.ctx.mainEndpoint();
    return this.ctx.fee.target(lane.target)?.endpoint ?? null;
  }

  laneUp(lane: Lane): void {
    const mask = lane.upstream?.versionMask ?? 0;
    // An upstream without version rolling is left out of the intersection: its jobs carry mask 0.
    if (mask !== 0 && (this.knownMask & mask) >>> 0 !== this.knownMask)
      this.knownMask = (this.knownMask & mask) >>> 0;
  }

  laneVersionMask(lane: Lane): void {
    this.laneUp(lane);
  }

  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void {
    const shared = lane.shared || lane.target !== MAIN;
    if (shared || !healthy)
      this.log(
        "warn",
        `upstream ${endpointText(endpoint)} (${lane.target === MAIN ? "main" : "fee"}): ${reason}`,
      );
    if (lane.target === MAIN) this.ctx.mainDown(endpoint, reason, healthy);
  }

  // ---- internals ----

  private openPoolMain(): SharedSource {
    if (this.poolMain === null) {
      const c = this.ctx.config;
      const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
      this.poolMain = new SharedSource(this, MAIN, user, "x");
    }
    return this.poolMain;
  }

  private allocSlot(): number {
    let best = this.slotCursor;
    let bestUse = Number.POSITIVE_INFINITY;
    for (let i = 0; i < SLOTS_PER_SESSION; i++) {
      const s = (this.slotCursor + i) % SLOTS_PER_SESSION;
      const use = this.slotUse[s] as number;
      if (use < bestUse) {
        best = s;
        bestUse = use;
        if (use === 0) break;
      }
    }
    this.slotCursor = (best + 1) % SLOTS_PER_SESSION;
    this.slotUse[best] = bestUse + 1;
    return best;
  }
}
