import type { PortStatsView } from "../domain/engine.ts";

/** A port the engine runs, as the operator knows it. */
export interface RunningPort {
  id: number;
  /** the listening port number */
  port: number;
  name: string;
}

/** What the offline rule reads of a device. */
export interface DeviceState {
  key: string;
  portId: number;
  wallet: string;
  name: string;
  ip: string;
  connections: number;
  lastSeen: number;
}

/** What the rules read of the device registry: the engine's DeviceRegistry, or a copy of it. */
export interface RegistryReadings {
  all(): Iterable<DeviceState>;
  tally(portId: number, now: number): { acceptedWork: number };
}

/** What the alert rules read: live state only, never the share path. */
export interface AlertSources {
  registry: RegistryReadings;
  runningPorts(): RunningPort[];
  portStats(portId: number): PortStatsView;
  /** the file system whose fullness is watched (the data directory) */
  dataDir: string;
  certificatePem(): string;
}

/**
 * Sources whose engine state lives on another thread: `refresh` takes a copy before each
 * evaluation, which the rules then read at once (they run inside one database transaction).
 */
export interface RefreshedSources extends AlertSources {
  refresh(): Promise<void>;
}
