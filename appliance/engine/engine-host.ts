/**
 * The engine as its own thread holds it (engine-worker.ts): the Engine, built with EngineDeps that
 * read the thread's copy of the appliance's state and turn every callback into an event for the main
 * thread, and the calls of thread-protocol.ts answered on it.
 */
import type { EngineEnvironment, SeriesSample } from "../domain/engine.ts";
import type { Port, PortStat } from "../domain/port.ts";
import type { TunnelView } from "../domain/rms.ts";
import { Engine } from "./engine.ts";
import type {
  AlertReadings,
  EngineCommands,
  EngineEvent,
  EngineInit,
  EngineMethod,
} from "./thread-protocol.ts";

export class EngineHost implements EngineCommands {
  private environment: EngineEnvironment;
  private bannedIps: ReadonlySet<string>;
  private bannedWallets: ReadonlySet<string>;
  private readonly engine: Engine;
  /** the ports the main thread was last told run */
  private readonly running = new Set<number>();

  constructor(
    init: EngineInit,
    private readonly emit: (event: EngineEvent) => void,
  ) {
    this.environment = init.environment;
    this.bannedIps = new Set(init.environment.bannedIps);
    this.bannedWallets = new Set(init.environment.bannedWallets);
    this.engine = new Engine({
      tls: () => this.environment.certificate,
      isIpBanned: (ip) => this.bannedIps.has(ip),
      isWalletBanned: (wallet) => this.bannedWallets.has(wallet),
      kencKey: () => this.environment.kencKey,
      rms: () => this.environment.rms,
      rmsUpstreamPassword: () => this.environment.rmsUpstreamPassword,
      log: (level, portId, message) => emit({ type: "log", level, portId, message }),
      timing: init.timing,
      series: {
        add: (sample) => this.seriesSample(sample),
        addTarget: (sample) => emit({ type: "target", sample }),
      },
      poolMoved: (portId, move) => emit({ type: "poolMoved", portId, move }),
    });
  }

  /** Answers one call: a command of this class or a live read of the engine. */
  call(method: EngineMethod, args: unknown[]): unknown {
    const target: object = method in this ? this : this.engine.live;
    const fn: unknown = Reflect.get(target, method);
    if (typeof fn !== "function") throw new Error(`the engine has no call ${method}`);
    return fn.apply(target, args);
  }

  apply(port: Port): Promise<void> {
    return this.reported(port.id, this.engine.apply(port));
  }

  stop(portId: number): Promise<void> {
    return this.reported(portId, this.engine.stop(portId));
  }

  remove(portId: number): Promise<void> {
    return this.reported(portId, this.engine.remove(portId));
  }

  updateWallets(port: Port): Promise<void> {
    return this.reported(port.id, this.engine.updateWallets(port));
  }

  stat(portId: number): PortStat {
    return this.engine.stat(portId);
  }

  ping(address: string, connType: number, timeoutMs: number, category: string | null): Promise<number> {
    return this.engine.ping(address, connType, timeoutMs, category);
  }

  setFeeHoldSeconds(seconds: number): void {
    this.engine.setFeeHoldSeconds(seconds);
  }

  setDeviceRatio(portId: number, wallet: string, name: string, ratio: number | null): void {
    this.engine.setDeviceRatio(portId, wallet, name, ratio);
  }

  setWalletRatio(portId: number, wallet: string, ratio: number | null): void {
    this.engine.setWalletRatio(portId, wallet, ratio);
  }

  setEnvironment(change: Partial<EngineEnvironment>): void {
    this.environment = { ...this.environment, ...change };
    if (change.bannedIps) this.bannedIps = new Set(change.bannedIps);
    if (change.bannedWallets) this.bannedWallets = new Set(change.bannedWallets);
  }

  tunnels(): Promise<TunnelView[]> {
    return this.engine.tunnels();
  }

  alertReadings(portIds: number[]): AlertReadings {
    const now = Date.now();
    const devices: AlertReadings["devices"] = [];
    for (const d of this.engine.registry.all()) {
      const { key, portId, wallet, name, ip, connections, lastSeen } = d;
      devices.push({ key, portId, wallet, name, ip, connections, lastSeen });
    }
    const ports = portIds.map((portId) => ({
      portId,
      acceptedWork: this.engine.registry.tally(portId, now).acceptedWork,
      stats: this.engine.live.portStats(portId),
    }));
    return { devices, ports };
  }

  async shutdown(): Promise<void> {
    await this.engine.shutdown();
    for (const portId of this.running) this.emit({ type: "running", portId, running: false });
    this.running.clear();
  }

  /**
   * A port's minute total closes: the fee audit on the main thread writes the hour with the ratios in
   * force, read here beside the samples since it cannot ask the engine in the middle of its write.
   */
  private seriesSample(sample: SeriesSample): void {
    this.emit({ type: "series", sample });
    if (sample.device !== "" || this.engine.running(sample.portId) === undefined) return;
    const stats = this.engine.live.portStats(sample.portId);
    this.emit({
      type: "feeInForce",
      portId: sample.portId,
      fee: stats.fee,
      standby: stats.upstream === "standby",
    });
  }

  /** After an operation on a port, succeeded or failed, tell whether the port runs. */
  private async reported(portId: number, op: Promise<void>): Promise<void> {
    try {
      await op;
    } finally {
      const running = this.engine.running(portId) !== undefined;
      if (running) this.running.add(portId);
      else this.running.delete(portId);
      this.emit({ type: "running", portId, running });
    }
  }
}
