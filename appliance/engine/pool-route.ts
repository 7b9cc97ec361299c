/**
 * Main ↔ standby selection for a port's main traffic. A main session that fails before delivering
 * a job (connect error, subscribe/job timeout) moves the port to the standby pool; while there, the
 * main pool is probed and the port returns as soon as it subscribes again. Lanes reconnect on each
 * move; miners stay connected.
 */
import type { LogLevel, PoolMove } from "../domain/engine.ts";
import { type Endpoint, endpointText } from "./transport/endpoint.ts";

/** Two addresses are the same pool; two absent ones (no standby configured) are the same too. */
const same = (a: Endpoint | null, b: Endpoint | null): boolean =>
  a === b || (a !== null && b !== null && a.host === b.host && a.port === b.port && a.tls === b.tls);

export class PoolRoute {
  onStandby = false;
  private probeTimer: ReturnType<typeof setInterval> | null = null;
  private probing = false;

  constructor(
    public main: Endpoint | null,
    public standby: Endpoint | null,
    private readonly probeMs: number,
    /** logs in to a pool the way the port's family does; rejects when it does not answer */
    private readonly probe: (endpoint: Endpoint) => Promise<number>,
    private readonly log: (level: LogLevel, message: string) => void,
    private readonly onSwitch: (reason: string) => void,
    /** told of failovers and fail-backs only, after onSwitch */
    private readonly onMove: (move: PoolMove) => void = () => {},
  ) {}

  current(): Endpoint | null {
    return this.onStandby && this.standby ? this.standby : (this.main ?? this.standby);
  }

  /** A session to `endpoint` ended; `healthy` if it had delivered jobs. */
  failed(endpoint: Endpoint, reason: string, healthy: boolean): void {
    if (healthy || this.onStandby || this.standby === null || !same(endpoint, this.main)) return;
    this.onStandby = true;
    this.log(
      "warn",
      `main pool ${endpointText(endpoint)} failed (${reason}); switching to standby ${endpointText(this.standby)}`,
    );
    this.startProbing();
    this.onSwitch("failover to standby");
    this.onMove({
      to: "standby",
      from: endpointText(endpoint),
      target: endpointText(this.standby),
      reason,
    });
  }

  /** New addresses from an edited port: go back to main and reconnect everything if they changed. */
  update(main: Endpoint | null, standby: Endpoint | null): boolean {
    const changed =
      !same(main, this.main) || !same(standby, this.standby) || (main === null) !== (this.main === null);
    this.main = main;
    this.standby = standby;
    if (!changed) return false;
    this.onStandby = false;
    this.stopProbing();
    this.onSwitch("pool address changed");
    return true;
  }

  stop(): void {
    this.stopProbing();
  }

  private startProbing(): void {
    if (this.probeTimer) return;
    this.probeTimer = setInterval(() => this.runProbe(), this.probeMs);
  }

  private stopProbing(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
  }

  private runProbe(): void {
    const main = this.main;
    if (main === null || this.probing) return;
    this.probing = true;
    this.probe(main).then(
      () => {
        this.probing = false;
        if (!this.onStandby || !same(main, this.main)) return;
        this.onStandby = false;
        this.stopProbing();
        this.log("info", `main pool ${endpointText(main)} is back; returning from standby`);
        this.onSwitch("fail-back to main");
        const from = this.standby === null ? "" : endpointText(this.standby);
        this.onMove({ to: "main", from, target: endpointText(main), reason: "" });
      },
      () => {
        this.probing = false;
      },
    );
  }
}
