import type { Port, PortRunState, PortStat } from "./port.ts";
import type { RmsSettings, TunnelView } from "./rms.ts";

/**
 * What the control plane (HTTP API, startup) asks of the stratum engine. The engine owns every
 * running listener and the in-memory device registry; the API never reaches past this interface.
 * The engine runs on a thread of its own (engine/engine-thread.ts), so everything that reads its
 * state answers asynchronously; only the run state, which changes solely through the operations
 * below, is kept on this side and read at once.
 */
export interface EngineControl {
  /** Start the port if it is active, or apply a changed configuration to the running port. */
  apply(port: Port): Promise<void>;
  /** Minimum seconds between a device's fee switches (the pump_t setting), for every port. */
  setFeeHoldSeconds(seconds: number): void;
  /** Stop the listener and disconnect the devices on it. */
  stop(portId: number): Promise<void>;
  /** Stop (if running) and forget the port. */
  remove(portId: number): Promise<void>;
  /** Replace the fee wallets of a running port without disconnecting anyone. */
  updateWallets(port: Port): Promise<void>;
  /** "queuing" while a start/stop/apply is in progress, otherwise what is running. */
  runState(portId: number): PortRunState;
  stat(portId: number): Promise<PortStat>;
  /** Live statistics read by the API; empty answers until devices connect. */
  live: LiveReads;
  /** Test an upstream: resolves with latency in ms or rejects with a reason. */
  /** time to log in to a pool, the way the coin's family does (`category`; null: Bitcoin stratum) */
  ping(address: string, connType: number, timeoutMs: number, category?: string | null): Promise<number>;
  /**
   * Per-device fee ratio override (spec §4, priority device > wallet > port); null clears it. A device
   * is named by its miner wallet and worker name, so the override reaches it again after a restart.
   * The override only takes effect on a port whose fee wallets have a ratio.
   */
  setDeviceRatio(portId: number, wallet: string, name: string, ratio: number | null): void;
  /** Per-miner-wallet fee ratio override on a port; null restores the port's ratio. */
  setWalletRatio(portId: number, wallet: string, ratio: number | null): void;
  /**
   * The parts of the appliance's state the engine reads that changed (blacklists, KENC key,
   * certificate, RMS settings). Resolves once the engine has them: an API call that changed one
   * answers after that, so the next connection is checked against the change.
   */
  setEnvironment(change: Partial<EngineEnvironment>): Promise<void>;
  /** The tunnels of the running RMS / RMS2 / RMS3 ports, as plain data. */
  tunnels(): Promise<TunnelView[]>;
  shutdown(): Promise<void>;
}

/**
 * The appliance's state the engine reads while it runs, kept as a copy on the engine's thread: the
 * ban checks run for every connection and must not wait for another thread. The whole of it is
 * handed over at start, then each part when the operator changes it.
 */
export interface EngineEnvironment {
  /** PEM of the appliance certificate, read when an SSL/TTS listener starts */
  certificate: { cert: string; key: string };
  /** the operator's KENC key, "" when none is set (KENC ports then refuse all) */
  kencKey: string;
  bannedIps: readonly string[];
  bannedWallets: readonly string[];
  /** the RMS settings a tunnel port checks and hands out at each handshake */
  rms: RmsSettings;
  /** the RMS password this appliance presents to the tunnel ports its RMS2/RMS3 pools reach, "" for none */
  rmsUpstreamPassword: string;
}

export type LogLevel = "info" | "warn" | "error";

/** Timings of the engine; every field has a production default (docs/engine.md). */
export interface EngineTiming {
  /** a miner must authorize within this time after connecting */
  loginTimeoutMs: number;
  /** an upstream that sends no job for this long counts as failed */
  jobTimeoutMs: number;
  /** connect + subscribe must complete within this time */
  connectTimeoutMs: number;
  /** while on the standby pool, the main pool is probed this often */
  failbackProbeMs: number;
  /** a shared fee session with no miner on it is closed after this long */
  feeIdleMs: number;
  /** first reconnect delay of an upstream session (doubles up to 30 s) */
  reconnectBackoffMs: number;
  /** hashrate protection: no fee diversion this long after a device's or upstream's (re)connect */
  protectMs: number;
  /** lines a miner may send per second before it counts as a flood and is disconnected */
  floodLinesPerSecond: number;
  /** how often the fee scheduler re-checks miners on fee targets between their shares */
  feeTickMs: number;
  /**
   * a CryptoNote pool that offers the "keepalive" extension is sent keepalived this often (xmrig's
   * period: such pools drop sessions silent for longer)
   */
  keepaliveMs: number;
}

/** One closed minute of one device, handed to the series store (persisted off the hot path). */
export interface SeriesSample {
  portId: number;
  /** device key (wallet/name/ip) or "" for the port total */
  device: string;
  /** epoch minute (ms / 60000) */
  minute: number;
  /** accepted work in hashes */
  work: number;
  /** accepted work diverted to fee wallets, in hashes */
  feeWork: number;
  valid: number;
  invalid: number;
  stale: number;
}

/**
 * One closed minute of one port's work for one target ("main" or a fee wallet key), for the hourly
 * fee audit. Every pool answer counts, hashrate protection or not: the audit is reconciled with the
 * pools' own tallies.
 */
export interface TargetSample {
  portId: number;
  /** epoch minute (ms / 60000) */
  minute: number;
  /** "main" or the fee wallet key (engine/fee/targets.ts feeKey) */
  target: string;
  /** accepted work in hashes */
  acceptedWork: number;
  /** work of the shares the pool rejected, in hashes */
  rejectedWork: number;
  acceptedShares: number;
  rejectedShares: number;
}

export interface SeriesSink {
  add(sample: SeriesSample): void;
  addTarget(sample: TargetSample): void;
}

/** What the engine needs from the rest of the appliance. */
export interface EngineDeps {
  /** PEM of the appliance certificate, read when an SSL/TTS listener starts. */
  tls(): { cert: string; key: string };
  isIpBanned(ip: string): boolean;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, portId: number | null, message: string): void;
  /** Shorter timings for tests; production uses the defaults. */
  timing?: Partial<EngineTiming>;
  /** Receives per-minute roll-ups (appliance/stats/series-store.ts implements it). */
  series?: SeriesSink;
  /** The operator's KENC key now (Settings → KENC key), "" when none is set: KENC ports refuse all. */
  kencKey?: () => string;
  /** The RMS settings now (Settings → RMS), read at each tunnel handshake; none set unless given. */
  rms?: () => RmsSettings;
  /**
   * The RMS password presented to the tunnel ports of RMS2/RMS3 pools (Settings → RMS), read as each
   * tunnel link is dialled; "" (or absent) for none.
   */
  rmsUpstreamPassword?: () => string;
  /** Address proxy ports bind; "0.0.0.0" unless set (tests use 127.0.0.1). */
  listenHostname?: string;
  /**
   * The fee scheduler's clock (ms); Date.now unless set. The fee benchmark runs it faster than real
   * time so that hours of slow miners fit in seconds.
   */
  clock?: () => number;
  /** A port's main traffic moved to its standby pool or back (alerts listen; called off the share path). */
  poolMoved?(portId: number, move: PoolMove): void;
}

/** A failover to the standby pool or a fail-back to the main pool (an edited address is neither). */
export interface PoolMove {
  to: "main" | "standby";
  /** the pools as host:port */
  from: string;
  target: string;
  /** why the main pool was left (empty for a fail-back) */
  reason: string;
}

/** Hashrates in hashes per second. */
export interface HashrateView {
  current: number;
  m15: number;
  h4: number;
  h24: number;
}

/** One device: a (wallet, name, address) seen on a port (spec §3 Device). */
export interface DeviceView {
  /** stable id for /api/stat/worker/{id} */
  id: string;
  portId: number;
  wallet: string;
  name: string;
  ip: string;
  /** the wallet.name presented upstream after replacement/unification */
  upstreamUser: string;
  agent: string;
  algorithm: string;
  online: boolean;
  valid: number;
  invalid: number;
  stale: number;
  hashrate: HashrateView;
  /** the part of the hashrate diverted to fee wallets */
  pumped: HashrateView;
  /** hashrate the miner reports itself, 0 when it does not */
  localHashrate: number;
  difficulty: number;
  reconnects: number;
  disconnects: number;
  /** configured fee ratio (0..1) for this device after priority device > wallet > port */
  feeRatio: number;
  /** achieved fee ratio in accepted work */
  feeAchieved: number;
  /** average submit → pool answer, ms */
  latencyMs: number;
  loginAt: number;
  lastSubmitAt: number;
  lastJobAt: number;
  /** connections currently open for this device */
  concurrency: number;
  /** "main" or the fee wallet id the device is mining for right now */
  mining: string;
  /**
   * The device's last connects and disconnects, newest first (stats/connection-log.ts). Only the
   * single-device answer (/api/stat/worker/{id}) carries it; device lists leave it out.
   */
  connectionLog?: ConnectionEvent[];
}

export interface ConnectionEvent {
  at: number;
  event: "connect" | "disconnect";
}

export interface PortLogEntry {
  at: number;
  level: LogLevel;
  message: string;
}

export interface IpView {
  ip: string;
  connections: number;
  devices: number;
  lastSeen: number;
}

export interface WalletView {
  wallet: string;
  devices: number;
  online: number;
  hashrate: HashrateView;
  valid: number;
  invalid: number;
  stale: number;
}

/** Configured vs achieved share of accepted work for one fee wallet. */
export interface FeeWalletSplit {
  walletId: number;
  addr: string;
  /** the wallet's ratio on the port */
  configured: number;
  /** what the accepted work should hold for this wallet, with device and wallet overrides weighted in */
  target: number;
  achieved: number;
  /** achieved − target */
  gap: number;
  /** accepted work in hashes */
  work: number;
}

export interface FeeSplitView {
  /** Σ of the port's wallet ratios */
  configured: number;
  /** the split the accepted work should show, device and wallet overrides weighted by their work */
  target: number;
  achieved: number;
  /** achieved − target, in the same units (0.0005 = 0.05 percentage points) */
  gap: number;
  /** accepted work in hashes, all targets */
  totalWork: number;
  wallets: FeeWalletSplit[];
}

export interface PortStatsView {
  portId: number;
  online: number;
  devices: number;
  hashrate: HashrateView;
  pumped: HashrateView;
  valid: number;
  invalid: number;
  stale: number;
  latencyMs: number;
  /**
   * Work in hashes since the port's tally began, every pool answer counted (hashrate protection or
   * not, like the fee audit): only grows, so a scraper can take rates of it.
   */
  work: { accepted: number; feeAccepted: number; rejected: number };
  /** which pool the port's main traffic goes to right now */
  upstream: "main" | "standby";
  upstreamSessions: number;
  feeSessions: number;
  fee: FeeSplitView;
}

export interface CurrencyStatsView {
  coin: string;
  ports: number;
  online: number;
  devices: number;
  hashrate: HashrateView;
  valid: number;
  invalid: number;
  stale: number;
}

export interface DeviceStatsView {
  online: number;
  offline: number;
  total: number;
}

export interface OnlineStatView {
  coin: string;
  online: number;
  offline: number;
  ports: { portId: number; online: number; offline: number }[];
}

/** The columns a device list can be sorted by (GET /api/port/{id}/workers?sort=…). */
export const DEVICE_SORT_KEYS = [
  "name",
  "wallet",
  "ip",
  "hashrate",
  "m15",
  "latency",
  "valid",
  "invalid",
  "stale",
  "loginAt",
  "lastSubmitAt",
  "online",
] as const;
export type DeviceSortKey = (typeof DEVICE_SORT_KEYS)[number];

/** One page of a device list: filtered by `q` (name, wallet or address), sorted, sliced. */
export interface DeviceQuery {
  limit: number;
  offset: number;
  sort: DeviceSortKey;
  order: "asc" | "desc";
  q: string;
}

/** A device list as the API answers it: the whole list, or a page of it with the total matched. */
export type DeviceList = DeviceView[] | { total: number; items: DeviceView[] };

/** Read side of the device registry, one method per API call of spec §7 that shows live state. */
export interface LiveStats {
  workers(portId: number): DeviceView[];
  /**
   * A port's device list without connection logs, whole (query null) or one page: paged where the
   * devices are, so that a farm's 10,000 views do not cross threads for a page of 100.
   */
  workerList(portId: number, query: DeviceQuery | null): DeviceList;
  portLog(portId: number): PortLogEntry[];
  portIps(portId: number): IpView[];
  groupWorkers(portId: number): WalletView[];
  walletList(portId: number): WalletView[];
  worker(workerId: string): DeviceView | null;
  portStats(portId: number): PortStatsView;
  currencyStats(coin: string): CurrencyStatsView;
  deviceStats(): DeviceStatsView;
  onlineStat(coin: string): OnlineStatView;
}

/** LiveStats as read from another thread: the same reads, each answered later. */
export type LiveReads = {
  [K in keyof LiveStats]: (...args: Parameters<LiveStats[K]>) => Promise<ReturnType<LiveStats[K]>>;
};
