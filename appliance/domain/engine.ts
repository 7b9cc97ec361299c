import type { Port, PortRunState, PortStat, RatioOverride } from "./port.ts";

/**
 * What the control plane (HTTP API, startup) asks of the stratum engine. The engine owns every
 * running listener and the in-memory device registry; the API never reaches past this interface.
 */
export interface EngineControl {
  /** Start the port if it is active, or apply a changed configuration to the running port. */
  apply(port: Port): Promise<void>;
  /** Stop the listener and disconnect the devices on it. */
  stop(portId: number): Promise<void>;
  /** Stop (if running) and forget the port. */
  remove(portId: number): Promise<void>;
  /** Replace the fee wallets of a running port without disconnecting anyone. */
  updateWallets(port: Port): Promise<void>;
  /**
   * Replace the per-wallet and per-device fee ratio overrides of a port (spec §4: device > wallet >
   * port). Called at start for every port and after each change through the API; takes effect on the
   * next fee decision without disconnecting anyone.
   */
  setRatioOverrides(portId: number, overrides: RatioOverride[]): void;
  /** "queuing" while a start/stop/apply is in progress, otherwise what is running. */
  runState(portId: number): PortRunState;
  stat(portId: number): PortStat;
  /** Live statistics read by the API; empty answers until devices connect. */
  live: LiveStats;
  /** Test an upstream: resolves with latency in ms or rejects with a reason. */
  ping(address: string, connType: number, timeoutMs: number): Promise<number>;
  shutdown(): Promise<void>;
}

/** Read side of the device registry, one method per API call of spec §7 that shows live state. */
export interface LiveStats {
  workers(portId: number): unknown[];
  portLog(portId: number): unknown[];
  portIps(portId: number): unknown[];
  groupWorkers(portId: number): unknown[];
  walletList(portId: number): unknown[];
  worker(workerId: string): unknown | null;
  portStats(portId: number): unknown;
  currencyStats(coin: string): unknown;
  deviceStats(): unknown;
  onlineStat(coin: string): unknown;
}
