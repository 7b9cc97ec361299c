/**
 * The messages between the appliance's main thread (engine-thread.ts) and the engine's thread
 * (engine-worker.ts). Plain data only: postMessage copies them by structured clone. Both sides
 * gather what they have to say within one turn of their event loop into one message, so a page of
 * the console that reads a thousand ports' figures costs one message each way, not a thousand.
 */

import type { DeviceState } from "../alerts/sources.ts";
import type {
  EngineEnvironment,
  EngineTiming,
  FeeSplitView,
  LiveStats,
  LogLevel,
  PoolMove,
  PortStatsView,
  SeriesSample,
  TargetSample,
} from "../domain/engine.ts";
import type { Port, PortStat } from "../domain/port.ts";
import type { TunnelView } from "../domain/rms.ts";

/** What one evaluation of the alert rules reads of the engine, taken in one call. */
export interface AlertReadings {
  /** what the offline rule reads of each device, copied off the engine's thread */
  devices: DeviceState[];
  ports: { portId: number; acceptedWork: number; stats: PortStatsView }[];
}

/**
 * The calls the engine's thread answers besides the live reads. After an operation on a port, failed
 * or not, a "running" event tells whether the port runs, ahead of the operation's reply.
 */
export interface EngineCommands {
  apply(port: Port): Promise<void>;
  stop(portId: number): Promise<void>;
  remove(portId: number): Promise<void>;
  updateWallets(port: Port): Promise<void>;
  stat(portId: number): PortStat;
  ping(address: string, connType: number, timeoutMs: number, category: string | null): Promise<number>;
  setFeeHoldSeconds(seconds: number): void;
  setDeviceRatio(portId: number, wallet: string, name: string, ratio: number | null): void;
  setWalletRatio(portId: number, wallet: string, ratio: number | null): void;
  setEnvironment(change: Partial<EngineEnvironment>): void;
  alertReadings(portIds: number[]): AlertReadings;
  tunnels(): Promise<TunnelView[]>;
  /** Stops every port and hands over the last minute's statistics; the thread may be ended after. */
  shutdown(): Promise<void>;
}

export type EngineApi = EngineCommands & LiveStats;
export type EngineMethod = keyof EngineApi;

export interface EngineCall {
  id: number;
  method: EngineMethod;
  args: unknown[];
}

/** The first message: what the Engine is constructed with. */
export interface EngineInit {
  type: "init";
  timing: Partial<EngineTiming> | undefined;
  environment: EngineEnvironment;
}

export type ToEngine = EngineInit | { type: "calls"; calls: EngineCall[] };

/** What the engine tells the main thread without being asked (EngineDeps' callbacks). */
export type EngineEvent =
  | { type: "log"; level: LogLevel; portId: number | null; message: string }
  | { type: "series"; sample: SeriesSample }
  | { type: "target"; sample: TargetSample }
  /** a running port's fee view when its minute closed (stats/targets-in-force.ts reads it) */
  | { type: "feeInForce"; portId: number; fee: FeeSplitView; standby: boolean }
  | { type: "poolMoved"; portId: number; move: PoolMove }
  /** whether a port runs, after each operation on it (the main thread keeps the run state) */
  | { type: "running"; portId: number; running: boolean };

export type EngineReply =
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; error: string };

/** Events and replies in the order they happened on the engine's thread. */
export type FromEngine = (EngineEvent | EngineReply)[];
