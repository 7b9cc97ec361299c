/**
 * ProxyPort: one running proxy port — its listener, its miners, and the upstream lanes they mine
 * on (dedicated per miner in Efficient/Compatible, shared in Pool mode, shared per fee wallet).
 * It starts, stops and takes configuration changes without disconnecting miners where it can.
 */
import type { EngineDeps, EngineTiming, LogLevel, PortStatsView } from "../domain/engine.ts";
import { type Port, ProxyMode } from "../domain/port.ts";
import type { DeviceRegistry } from "../stats/device-registry.ts";
import { PortLog } from "../stats/port-log.ts";
import { MAIN } from "../stats/work-split.ts";
import { FeeScheduler } from "./fee/scheduler.ts";
import { SLOTS_PER_SESSION } from "./framing.ts";
import { JobTable } from "./job.ts";
import { Lane, type LaneHost } from "./lane.ts";
import { type MinerHost, MinerSession } from "./miner-session.ts";
import { PoolRoute } from "./pool-route.ts";
import { joinUser } from "./rewrite.ts";
import { SharedSource } from "./shared-source.ts";
import { BIP320_MASK } from "./stratum/bitcoin/methods.ts";
import { hashesPerDifficulty } from "./stratum/bitcoin/target.ts";
import { type Endpoint, endpointText, parseEndpoint } from "./transport/endpoint.ts";
import { startForward } from "./transport/forward.ts";
import { type RunningListener, startListener } from "./transport/listener.ts";
import { PROXY_AGENT, type UpstreamOptions } from "./upstream.ts";

export const FORWARD_CATEGORY = "nginx";
/** A miner reconnecting within this time may resume its session (keeps its extranonce1). */
const RESUME_WINDOW_MS = 10 * 60_000;
const MAX_RECENT_SESSIONS = 4096;

interface IpRecord {
  connections: number;
  lastSeen: number;
}

/** Fields whose change needs a new listener or new sessions for everyone. */
const restartNeeded = (a: Port, b: Port): boolean =>
  a.port !== b.port ||
  a.protocol !== b.protocol ||
  a.mode !== b.mode ||
  a.category !== b.category ||
  (b.mode === ProxyMode.POOL && (a.proxy_addr !== b.proxy_addr || a.proxy_device !== b.proxy_device));

export class ProxyPort implements MinerHost, LaneHost {
  readonly jobs = new JobTable();
  readonly fee: FeeScheduler;
  readonly portLog = new PortLog();
  readonly miners = new Set<MinerSession>();
  readonly ips = new Map<string, IpRecord>();
  config: Port;
  factor: number;
  private listener: RunningListener | null = null;
  private connections = 0;
  private readonly route: PoolRoute;
  private poolMain: SharedSource | null = null;
  private readonly feeSources = new Map<string, SharedSource>();
  private readonly dedicated = new Set<Lane>();
  private readonly slotUse = new Uint16Array(SLOTS_PER_SESSION);
  /** session id → slot of recently closed re-framed sessions, for mining.subscribe resume */
  private readonly recentSessions = new Map<string, { slot: number; at: number }>();
  private slotCursor = 0;
  private knownMask = BIP320_MASK;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private feeTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    config: Port,
    private readonly deps: EngineDeps,
    readonly registry: DeviceRegistry,
    readonly timing: EngineTiming,
    /** minimum time between a device's fee switches (the pump_t setting) */
    feeHoldMs = 0,
  ) {
    this.config = config;
    this.factor = hashesPerDifficulty(config.category);
    this.fee = new FeeScheduler(deps.clock ?? Date.now);
    this.fee.holdMs = feeHoldMs;
    this.fee.setWallets(config.wallets);
    this.route = new PoolRoute(
      parseEndpoint(config.pool_address, config.connect_mode),
      config.pool_address2.trim() ? parseEndpoint(config.pool_address2, config.connect_mode2) : null,
      timing.failbackProbeMs,
      () => this.upstreamOptions(null),
      (level, message) => this.log(level, message),
      (reason) => this.rehomeMain(reason),
    );
  }

  get portId(): number {
    return this.config.id;
  }

  get category(): string {
    return this.config.category;
  }

  get isForward(): boolean {
    return this.config.category === FORWARD_CATEGORY;
  }

  /** The port the listener actually bound (differs from config.port only when that is 0). */
  get boundPort(): number {
    return this.listener?.port ?? 0;
  }

  private get hostname(): string {
    return this.deps.listenHostname ?? "0.0.0.0";
  }

  get backoffMs(): number {
    return this.timing.reconnectBackoffMs;
  }

  log(level: LogLevel, message: string): void {
    this.portLog.add(level, message);
    this.deps.log(level, this.portId, message);
  }

  start(): void {
    if (this.listener) return;
    const admit = (ip: string): boolean => {
      if (this.deps.isIpBanned(ip)) {
        this.log("warn", `refused ${ip}: address is blacklisted`);
        return false;
      }
      if (this.connections >= this.config.limit_connections) {
        this.log("warn", `refused ${ip}: connection limit ${this.config.limit_connections} reached`);
        return false;
      }
      const rec = this.ips.get(ip) ?? { connections: 0, lastSeen: 0 };
      rec.lastSeen = Date.now();
      this.ips.set(ip, rec);
      return true;
    };
    if (this.isForward) {
      this.listener = startForward(
        this.hostname,
        this.config.port,
        this.config.protocol,
        () => this.deps.tls(),
        () => this.route.current(),
        {
          admit,
          opened: () => this.connections++,
          closed: () => this.connections--,
          log: (m) => this.log("warn", m),
        },
      );
    } else {
      this.listener = startListener<MinerSession>(
        this.hostname,
        this.config.port,
        this.config.protocol,
        () => this.deps.tls(),
        {
          open: (socket, ip) => {
            if (!admit(ip)) return null;
            const miner = new MinerSession(this, socket, ip, this.allocSlot());
            this.connections++;
            this.miners.add(miner);
            const rec = this.ips.get(ip);
            if (rec) rec.connections++;
            return miner;
          },
          data: (m, chunk) => m.splitter.push(chunk),
          drain: (m) => m.writer.drain(),
          close: (m) => m.close("miner closed the connection"),
        },
      );
      if (this.config.mode === ProxyMode.POOL) this.openPoolMain();
    }
    this.sweepTimer = setInterval(
      () => this.sweep(),
      Math.max(50, Math.min(this.timing.feeIdleMs / 2, 10_000)),
    );
    this.feeTimer = setInterval(() => this.fee.tick(), this.timing.feeTickMs);
    this.log(
      "info",
      `listening on ${this.boundPort} (${this.isForward ? "forward" : `mode ${this.config.mode}`})`,
    );
  }

  stop(): void {
    this.listener?.stop();
    this.listener = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.feeTimer) clearInterval(this.feeTimer);
    this.feeTimer = null;
    for (const m of [...this.miners]) m.close("port stopped");
    this.poolMain?.close();
    this.poolMain = null;
    for (const s of this.feeSources.values()) s.close();
    this.feeSources.clear();
    for (const l of this.dedicated) l.close();
    this.dedicated.clear();
    this.route.stop();
    this.log("info", "stopped");
  }

  /** Applies an edited configuration; returns false when the listener must be restarted instead. */
  reconfigure(next: Port): boolean {
    if (restartNeeded(this.config, next)) return false;
    const before = this.config;
    this.config = next;
    this.route.update(
      parseEndpoint(next.pool_address, next.connect_mode),
      next.pool_address2.trim() ? parseEndpoint(next.pool_address2, next.connect_mode2) : null,
    );
    if (JSON.stringify(before.wallets) !== JSON.stringify(next.wallets)) this.updateWallets(next);
    return true;
  }

  /** Hot update of fee wallets: miners on removed wallets go back to the main pool; nobody reconnects. */
  updateWallets(next: Port): void {
    this.config = { ...this.config, wallets: next.wallets };
    this.fee.setWallets(next.wallets);
    // Miners on removed wallets move back to the main pool; the removed wallets' sessions stay
    // until idle so that shares already in flight are still answered.
    for (const m of this.miners) m.refreshFee();
    this.log("info", `fee wallets updated (${this.fee.targets.length})`);
  }

  // ---- MinerHost ----

  versionMask(): number {
    return this.knownMask;
  }

  isWalletBanned(wallet: string): boolean {
    return this.deps.isWalletBanned(wallet);
  }

  mainLane(miner: MinerSession): Lane | null {
    if (this.route.current() === null) return null;
    if (this.config.mode === ProxyMode.POOL) return this.openPoolMain().leaseFor(miner);
    const lane = new Lane(this, MAIN, false, "auto", null, miner.agent || null);
    this.dedicated.add(lane);
    lane.open();
    return lane;
  }

  feeLane(miner: MinerSession, key: string): Lane | null {
    const target = this.fee.target(key);
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
      this.connections--;
      const u = this.slotUse[miner.slot] as number;
      if (u > 0) this.slotUse[miner.slot] = u - 1;
      const rec = this.ips.get(miner.ip);
      if (rec && rec.connections > 0) rec.connections--;
    }
    this.poolMain?.release(miner);
    for (const s of this.feeSources.values()) s.release(miner);
    if (miner.main && !miner.main.shared) this.dedicated.delete(miner.main);
  }

  // ---- LaneHost ----

  upstreamOptions(agent: string | null): UpstreamOptions {
    // setting.ra replaces the agent ("core info") every session presents to the pool
    const ra = this.config.setting.ra.trim();
    return {
      agent: ra || agent || PROXY_AGENT,
      versionRolling: true,
      connectTimeoutMs: this.timing.connectTimeoutMs,
      jobTimeoutMs: this.timing.jobTimeoutMs,
    };
  }

  endpointFor(lane: Lane): Endpoint | null {
    if (lane.target === MAIN) return this.route.current();
    return this.fee.target(lane.target)?.endpoint ?? null;
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
    if (lane.target === MAIN) this.route.failed(endpoint, reason, healthy);
  }

  // ---- internals ----

  private openPoolMain(): SharedSource {
    if (this.poolMain === null) {
      const c = this.config;
      const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
      this.poolMain = new SharedSource(this, MAIN, user, "x");
    }
    return this.poolMain;
  }

  private rehomeMain(reason: string): void {
    for (const l of this.dedicated) l.rehome(reason);
    this.poolMain?.rehome(reason);
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

  private sweep(): void {
    const now = Date.now();
    for (const [key, s] of this.feeSources) {
      s.sweep(now, this.timing.feeIdleMs);
      if (s.sessions === 0) this.feeSources.delete(key);
    }
    for (const [ip, rec] of this.ips)
      if (rec.connections === 0 && now - rec.lastSeen > 24 * 3600_000) this.ips.delete(ip);
  }

  get onStandby(): boolean {
    return this.route.onStandby;
  }

  get online(): number {
    let n = 0;
    for (const m of this.miners) if (m.state === "authorized") n++;
    return this.isForward ? this.connections : n;
  }

  sessionCounts(): { main: number; fee: number } {
    let fee = 0;
    for (const s of this.feeSources.values()) fee += s.sessions;
    return { main: (this.poolMain?.sessions ?? 0) + this.dedicated.size, fee };
  }

  feeView(): PortStatsView["fee"] {
    const split = this.registry.tally(this.portId).split;
    const achieved = split.total > 0 ? split.feeWork() / split.total : 0;
    const effective = this.fee.effective();
    return {
      configured: this.fee.targets.reduce((s, w) => s + w.ratio, 0),
      target: effective.ratio,
      achieved,
      gap: split.total > 0 ? achieved - effective.ratio : 0,
      totalWork: split.total,
      wallets: this.fee.targets.map((w) => {
        const target = effective.byTarget.get(w.key) ?? w.ratio;
        const got = split.achieved(w.key);
        return {
          walletId: w.walletId,
          addr: w.addr,
          configured: w.ratio,
          target,
          achieved: got,
          gap: split.total > 0 ? got - target : 0,
          work: split.work(w.key),
        };
      }),
    };
  }
}
