/**
 * Engine: every running proxy port and the device registry. The appliance runs it on a thread of
 * its own (engine-worker.ts) behind EngineControl; tests and benchmarks construct it directly.
 * Operations on one port run one after another; while one runs the port reads "queuing".
 */
import type { EngineDeps, EngineTiming, LiveStats } from "../domain/engine.ts";
import type { Port, PortRunState, PortStat } from "../domain/port.ts";
import { RMS_DEFAULTS, type TunnelView } from "../domain/rms.ts";
import { DeviceRegistry } from "../stats/device-registry.ts";
import { deviceOverrideKey } from "./fee/targets.ts";
import { EngineLiveStats } from "./live-stats.ts";
import { pingUpstream } from "./ping.ts";
import { ProxyPort } from "./port.ts";
import { type TunnelHandout, tunnelHandout } from "./transport/tunnel/handout.ts";
import { uplinkCredentials } from "./transport/tunnel/uplinks.ts";

export const DEFAULT_TIMING: EngineTiming = {
  loginTimeoutMs: 30_000,
  jobTimeoutMs: 180_000,
  connectTimeoutMs: 10_000,
  failbackProbeMs: 30_000,
  feeIdleMs: 120_000,
  reconnectBackoffMs: 1_000,
  protectMs: 600_000,
  floodLinesPerSecond: 500,
  feeTickMs: 1_000,
  keepaliveMs: 60_000,
};

const MINUTE = 60_000;

/** A ratio override as the engine keeps it for ports not running yet; name null: the whole wallet. */
interface RememberedOverride {
  wallet: string;
  name: string | null;
  ratio: number | null;
}

export class Engine {
  readonly registry = new DeviceRegistry();
  readonly live: LiveStats;
  readonly timing: EngineTiming;
  private readonly ports = new Map<number, ProxyPort>();
  private readonly configs = new Map<number, Port>();
  private readonly queue = new Map<number, Promise<void>>();
  private readonly busy = new Map<number, number>();
  private readonly ticker: ReturnType<typeof setInterval>;
  private feeHoldMs = 0;
  /** per port, each override by its key (deviceOverrideKey or "w:" + wallet) */
  private readonly overrides = new Map<number, Map<string, RememberedOverride>>();

  constructor(private readonly deps: EngineDeps) {
    this.timing = { ...DEFAULT_TIMING, ...deps.timing };
    this.live = new EngineLiveStats(this.ports, this.configs, this.registry);
    // Close each minute's buckets shortly after the minute ends.
    this.ticker = setInterval(() => this.registry.tick(Date.now(), this.deps.series), MINUTE);
    this.ticker.unref?.();
  }

  /** The running port object (tests and benchmarks read its bound port and counters). */
  running(portId: number): ProxyPort | undefined {
    return this.ports.get(portId);
  }

  apply(port: Port): Promise<void> {
    return this.serial(port.id, () => {
      this.configs.set(port.id, port);
      const current = this.ports.get(port.id);
      if (port.status !== 1) {
        if (current) this.halt(port.id, current);
        return;
      }
      if (current?.reconfigure(port)) return;
      if (current) this.halt(port.id, current);
      let p: ProxyPort;
      try {
        p = new ProxyPort(
          port,
          this.deps,
          this.registry,
          this.timing,
          () => this.tunnelHandout(),
          this.feeHoldMs,
        );
      } catch (e) {
        this.deps.log("error", port.id, `not started: ${(e as Error).message}`);
        throw e;
      }
      this.applyOverrides(p);
      try {
        p.start();
      } catch (e) {
        p.stop();
        this.deps.log("error", port.id, `cannot listen on ${port.port}: ${(e as Error).message}`);
        throw e;
      }
      this.ports.set(port.id, p);
    });
  }

  stop(portId: number): Promise<void> {
    return this.serial(portId, () => {
      const p = this.ports.get(portId);
      if (p) this.halt(portId, p);
    });
  }

  remove(portId: number): Promise<void> {
    return this.serial(portId, () => {
      const p = this.ports.get(portId);
      if (p) this.halt(portId, p);
      this.configs.delete(portId);
      this.overrides.delete(portId);
      this.registry.forgetPort(portId);
    });
  }

  updateWallets(port: Port): Promise<void> {
    return this.serial(port.id, () => {
      const cfg = this.configs.get(port.id);
      if (cfg) this.configs.set(port.id, { ...cfg, wallets: port.wallets });
      this.ports.get(port.id)?.updateWallets(port);
    });
  }

  runState(portId: number): PortRunState {
    if ((this.busy.get(portId) ?? 0) > 0) return "queuing";
    return this.ports.has(portId) ? "active" : "closed";
  }

  stat(portId: number): PortStat {
    const p = this.ports.get(portId);
    if (!p) return { online: 0, delay: 0 };
    return { online: p.online, delay: Math.round(this.registry.tally(portId).latencyMs * 100) / 100 };
  }

  ping(
    address: string,
    connType: number,
    timeoutMs: number,
    category: string | null = null,
  ): Promise<number> {
    return pingUpstream(address, connType, timeoutMs, category, uplinkCredentials(this.deps));
  }

  async tunnels(): Promise<TunnelView[]> {
    return [...this.ports.values()].flatMap((p) =>
      p.tunnels().map((t) => ({ portId: p.portId, port: p.boundPort, ...t })),
    );
  }

  /** The RMS settings as they are now, with the tunnel ports running now (read at each handshake). */
  private tunnelHandout(): TunnelHandout {
    const running = [...this.ports.values()].map((p) => ({ ...p.config, port: p.boundPort }));
    return tunnelHandout(this.deps.rms?.() ?? RMS_DEFAULTS, running);
  }

  setFeeHoldSeconds(seconds: number): void {
    this.feeHoldMs = Math.max(0, seconds) * 1000;
    for (const p of this.ports.values()) p.fee.holdMs = this.feeHoldMs;
  }

  setDeviceRatio(portId: number, wallet: string, name: string, ratio: number | null): void {
    this.remember(portId, deviceOverrideKey(wallet, name), { wallet, name, ratio });
    const p = this.ports.get(portId);
    if (!p) return;
    p.fee.setDeviceRatio(wallet, name, ratio);
    p.refreshFee();
  }

  setWalletRatio(portId: number, wallet: string, ratio: number | null): void {
    this.remember(portId, `w:${wallet}`, { wallet, name: null, ratio });
    const p = this.ports.get(portId);
    if (!p) return;
    p.fee.setWalletRatio(wallet, ratio);
    p.refreshFee();
  }

  /** Overrides arrive before a port starts (at boot) and must outlive a port's restart. */
  private remember(portId: number, key: string, o: RememberedOverride): void {
    let kept = this.overrides.get(portId);
    if (kept === undefined) {
      kept = new Map();
      this.overrides.set(portId, kept);
    }
    if (o.ratio === null) kept.delete(key);
    else kept.set(key, o);
  }

  private applyOverrides(p: ProxyPort): void {
    for (const o of this.overrides.get(p.portId)?.values() ?? []) {
      if (o.name === null) p.fee.setWalletRatio(o.wallet, o.ratio);
      else p.fee.setDeviceRatio(o.wallet, o.name, o.ratio);
    }
  }

  async shutdown(): Promise<void> {
    clearInterval(this.ticker);
    await Promise.allSettled([...this.queue.values()]);
    for (const [id, p] of this.ports) this.halt(id, p);
    this.registry.tick(Date.now() + MINUTE, this.deps.series);
  }

  private halt(portId: number, p: ProxyPort): void {
    p.stop();
    this.ports.delete(portId);
  }

  private serial(portId: number, op: () => void): Promise<void> {
    this.busy.set(portId, (this.busy.get(portId) ?? 0) + 1);
    const prev = this.queue.get(portId) ?? Promise.resolve();
    const next = prev
      .catch(() => {})
      .then(op)
      .finally(() => {
        const n = (this.busy.get(portId) ?? 1) - 1;
        if (n <= 0) this.busy.delete(portId);
        else this.busy.set(portId, n);
        if (this.queue.get(portId) === next) this.queue.delete(portId);
      });
    this.queue.set(portId, next);
    return next;
  }
}
