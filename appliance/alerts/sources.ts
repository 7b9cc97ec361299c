import type { PortStatsView } from "../domain/engine.ts";
import type { DeviceRegistry } from "../stats/device-registry.ts";

/** A port the engine runs, as the operator knows it. */
export interface RunningPort {
  id: number;
  /** the listening port number */
  port: number;
  name: string;
}

/** What the alert rules read: live state only, never the share path. */
export interface AlertSources {
  registry: DeviceRegistry;
  runningPorts(): RunningPort[];
  portStats(portId: number): PortStatsView;
  /** the file system whose fullness is watched (the data directory) */
  dataDir: string;
  certificatePem(): string;
}
