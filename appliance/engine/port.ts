/**
 * ProxyPort: one running proxy port. It owns what every protocol family shares — the listener and
 * admission (blacklist, connection limit, the IP list), the fee scheduler, the main ↔ standby route,
 * the port log — and hands each admitted miner to its family's runtime. It starts, stops and takes
 * configuration changes without disconnecting miners where it can.
 */
import { hashFactorOf, isCategory } from "../catalog/categories.ts";
import type { EngineDeps, EngineTiming, LogLevel, PortStatsView } from "../domain/engine.ts";
import type { Port } from "../domain/port.ts";
import { missingTransport } from "../domain/transports.ts";
import type { DeviceRegistry } from "../stats/device-registry.ts";
import { PortLog } from "../stats/port-log.ts";
import { FeeScheduler } from "./fee/scheduler.ts";
import { modeOf } from "./modes/index.ts";
import type { ModeStrategy } from "./modes/mode.ts";
import { PoolRoute } from "./pool-route.ts";
import { PROXY_AGENT } from "./stratum/agent.ts";
import { familyFor } from "./stratum/families.ts";
import type { Family, FamilyRuntime, MinerConnection, PortContext } from "./stratum/family.ts";
import type { Endpoint } from "./transport/endpoint.ts";
import { startForward } from "./transport/forward.ts";
import { startFrontedListener } from "./transport/fronted-listener.ts";
import type { ConnectionHooks, RunningListener } from "./transport/listener.ts";
import type { TunnelHandout } from "./transport/tunnel/handout.ts";
import type { TunnelInfo } from "./transport/tunnel/server.ts";
import { TunnelUplinks, uplinkCredentials } from "./transport/tunnel/uplinks.ts";

export const FORWARD_CATEGORY = "nginx";

interface IpRecord {
  connections: number;
  lastSeen: number;
}

/** Why a port cannot run: its coin's family or its mode is not implemented (the API refuses both). */
export class UnsupportedPort extends Error {}

/** Fields whose change needs a new listener or new sessions for everyone. */
const restartNeeded = (a: Port, b: Port, mode: ModeStrategy): boolean =>
  a.port !== b.port ||
  a.protocol !== b.protocol ||
  a.setting.et_mode !== b.setting.et_mode ||
  a.mode !== b.mode ||
  a.category !== b.category ||
  mode.needsRestart(a, b);

/**
 * Work per unit of difficulty from the catalogue. A category without a published factor counts work
 * in difficulty units: the fee split is a ratio of work on one port, so the factor cancels out there.
 */
const factorOf = (category: string): number => (isCategory(category) ? hashFactorOf(category) : null) ?? 1;

export class ProxyPort implements PortContext {
  readonly fee: FeeScheduler;
  readonly portLog = new PortLog();
  readonly ips = new Map<string, IpRecord>();
  readonly mode: ModeStrategy;
  readonly factor: number;
  /** the family's side of this port (null for the forward coin, which does not parse stratum) */
  readonly runtime: FamilyRuntime | null;
  config: Port;
  private readonly family: Family | null;
  private listener: RunningListener | null = null;
  /** a tunnel port's tunnels (none on other transports and while stopped) */
  private tunnelList: () => TunnelInfo[] = () => [];
  private connections = 0;
  private readonly route: PoolRoute;
  /** tunnels to the pools whose connect mode is RMS2/RMS3 */
  private readonly uplinks: TunnelUplinks;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private feeTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    config: Port,
    private readonly deps: EngineDeps,
    readonly registry: DeviceRegistry,
    readonly timing: EngineTiming,
    /** what the RMS settings hand this port's tunnel clients now (tunnel ports only) */
    private readonly handout: () => TunnelHandout,
    /** minimum time between a device's fee switches (the pump_t setting) */
    feeHoldMs = 0,
  ) {
    this.config = config;
    const mode = modeOf(config.mode);
    this.family = config.category === FORWARD_CATEGORY ? null : familyFor(config.category);
    if (config.category !== FORWARD_CATEGORY) {
      if (this.family === null)
        throw new UnsupportedPort(`the ${config.category} protocol family is not implemented`);
      if (mode === null || !this.family.modes.includes(mode.code))
        throw new UnsupportedPort(`mode ${config.mode} is not available for ${config.category}`);
    }
    const transport = missingTransport(config);
    if (transport !== null) throw new UnsupportedPort(`${transport.what} is not implemented`);
    this.mode = mode ?? (modeOf(0) as ModeStrategy);
    this.factor = factorOf(config.category);
    this.uplinks = new TunnelUplinks(uplinkCredentials(deps), (m) => this.log("warn", m));
    this.fee = new FeeScheduler(deps.clock ?? Date.now);
    this.fee.holdMs = feeHoldMs;
    this.fee.setWallets(config.wallets, this.poolEndpoint);
    const family = this.family;
    const [main, standby] = this.poolEndpoints(config);
    this.route = new PoolRoute(
      main,
      standby,
      timing.failbackProbeMs,
      (ep) =>
        family === null ? Promise.resolve(0) : family.probe(ep, this.agentFor(null), timing.connectTimeoutMs),
      (level, message) => this.log(level, message),
      (reason) => this.runtime?.rehomeMain(reason),
      (move) => deps.poolMoved?.(this.portId, move),
    );
    this.runtime = family?.runtime(this) ?? null;
  }

  /**
   * Where a pool (main, standby or a fee wallet's) is dialled: an RMS2/RMS3 pool through its
   * tunnel's loopback port, one tunnel per server port however many of the port's pools it is.
   */
  private readonly poolEndpoint = (address: string, protocol: number): Endpoint | null =>
    this.uplinks.endpoint(address, protocol);

  /** The main and standby pools' endpoints. */
  private poolEndpoints(p: Port): [Endpoint | null, Endpoint | null] {
    return [
      this.poolEndpoint(p.pool_address, p.connect_mode),
      p.pool_address2.trim() ? this.poolEndpoint(p.pool_address2, p.connect_mode2) : null,
    ];
  }

  /** Stops the tunnels that none of the main, standby and fee pools uses any more. */
  private retainUplinks(): void {
    this.uplinks.retain([...this.poolEndpoints(this.config), ...this.fee.targets.map((t) => t.endpoint)]);
  }

  get portId(): number {
    return this.config.id;
  }

  get category(): string {
    return this.config.category;
  }

  /** The port the listener actually bound (differs from config.port only when that is 0). */
  get boundPort(): number {
    return this.listener?.port ?? 0;
  }

  private get hostname(): string {
    return this.deps.listenHostname ?? "0.0.0.0";
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
      rec.connections++;
      this.ips.set(ip, rec);
      this.connections++;
      return true;
    };
    const runtime = this.runtime;
    if (runtime === null) {
      this.listener = startForward(
        this.hostname,
        this.config.port,
        this.config.protocol,
        () => this.deps.tls(),
        () => this.route.current(),
        { admit, closed: (ip) => this.connectionClosed(ip), log: (m) => this.log("warn", m) },
      );
    } else {
      const hooks: ConnectionHooks<MinerConnection> = {
        open: (socket, ip, tunnelled) => (admit(ip) ? runtime.accept(socket, ip, tunnelled) : null),
        data: (m, chunk) => m.onData(chunk),
        drain: (m) => m.onDrain(),
        close: (m) => m.close("miner closed the connection"),
      };
      const fronted = startFrontedListener(this.hostname, this.config, () => this.deps.tls(), hooks, {
        config: () => this.config,
        kencKey: () => this.deps.kencKey?.() ?? "",
        handout: this.handout,
        log: (m) => this.log("warn", m),
      });
      this.listener = fronted;
      this.tunnelList = fronted.tunnels;
      runtime.start();
    }
    this.sweepTimer = setInterval(
      () => this.sweep(),
      Math.max(50, Math.min(this.timing.feeIdleMs / 2, 10_000)),
    );
    this.feeTimer = setInterval(() => this.fee.tick(), this.timing.feeTickMs);
    this.log(
      "info",
      `listening on ${this.boundPort} (${runtime === null ? "forward" : `${this.family?.name} stratum, ${this.mode.name} mode`})`,
    );
  }

  /** The tunnels of this port if it is an RMS-family port. */
  tunnels(): TunnelInfo[] {
    return this.tunnelList();
  }

  stop(): void {
    this.listener?.stop();
    this.listener = null;
    this.tunnelList = () => [];
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.feeTimer) clearInterval(this.feeTimer);
    this.feeTimer = null;
    this.runtime?.stop();
    this.route.stop();
    this.uplinks.stop();
    this.log("info", "stopped");
  }

  /** Applies an edited configuration; returns false when the listener must be restarted instead. */
  reconfigure(next: Port): boolean {
    if (restartNeeded(this.config, next, this.mode)) return false;
    const before = this.config;
    this.config = next;
    this.route.update(...this.poolEndpoints(next));
    if (JSON.stringify(before.wallets) !== JSON.stringify(next.wallets)) this.updateWallets(next);
    else this.retainUplinks();
    return true;
  }

  /** Hot update of fee wallets: miners on removed wallets go back to the main pool; nobody reconnects. */
  updateWallets(next: Port): void {
    this.config = { ...this.config, wallets: next.wallets };
    this.fee.setWallets(next.wallets, this.poolEndpoint);
    this.retainUplinks();
    // The removed wallets' sessions stay until idle so that shares already in flight are answered.
    this.refreshFee();
    this.log("info", `fee wallets updated (${this.fee.targets.length})`);
  }

  /** Fee wallets or a ratio override changed: every miner takes the new split. */
  refreshFee(): void {
    this.runtime?.refreshFee();
  }

  // ---- PortContext ----

  mainEndpoint(): Endpoint | null {
    return this.route.current();
  }

  mainDown(endpoint: Endpoint, reason: string, healthy: boolean): void {
    this.route.failed(endpoint, reason, healthy);
  }

  agentFor(minerAgent: string | null): string {
    // setting.ra replaces the agent ("core info") every session presents to the pool
    return this.config.setting.ra.trim() || minerAgent || PROXY_AGENT;
  }

  isWalletBanned(wallet: string): boolean {
    return this.deps.isWalletBanned(wallet);
  }

  connectionClosed(ip: string): void {
    this.connections--;
    const rec = this.ips.get(ip);
    if (rec && rec.connections > 0) rec.connections--;
  }

  // ---- readings ----

  private sweep(): void {
    const now = Date.now();
    this.runtime?.sweep(now);
    for (const [ip, rec] of this.ips)
      if (rec.connections === 0 && now - rec.lastSeen > 24 * 3600_000) this.ips.delete(ip);
  }

  get onStandby(): boolean {
    return this.route.onStandby;
  }

  /** Miners logged in (for the forward coin: open connections). */
  get online(): number {
    return this.runtime?.online ?? this.connections;
  }

  /** Connections open now, logged in or not. */
  get connected(): number {
    return this.connections;
  }

  sessionCounts(): { main: number; fee: number } {
    return this.runtime?.sessionCounts() ?? { main: 0, fee: 0 };
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
