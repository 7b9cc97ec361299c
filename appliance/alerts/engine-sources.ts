/**
 * Alert sources for the engine on its own thread: before each evaluation one call takes what the
 * rules read — every device's state, and each running port's work and figures — and the rules read
 * that copy. The running ports are the ones of the copy, so a rule never asks for a port it lacks.
 */
import type { PortStatsView } from "../domain/engine.ts";
import type { AlertReadings } from "../engine/thread-protocol.ts";
import type { RefreshedSources, RegistryReadings, RunningPort } from "./sources.ts";

type PortReading = AlertReadings["ports"][number];

export class EngineSources implements RefreshedSources {
  private ports: RunningPort[] = [];
  private devices: AlertReadings["devices"] = [];
  private readonly byPort = new Map<number, PortReading>();
  readonly registry: RegistryReadings = {
    all: () => this.devices,
    tally: (portId) => ({ acceptedWork: this.byPort.get(portId)?.acceptedWork ?? 0 }),
  };

  constructor(
    private readonly read: (portIds: number[]) => Promise<AlertReadings>,
    private readonly running: () => RunningPort[],
    readonly dataDir: string,
    readonly certificatePem: () => string,
  ) {}

  async refresh(): Promise<void> {
    const ports = this.running();
    const readings = await this.read(ports.map((p) => p.id));
    this.ports = ports;
    this.devices = readings.devices;
    this.byPort.clear();
    for (const p of readings.ports) this.byPort.set(p.portId, p);
  }

  runningPorts(): RunningPort[] {
    return this.ports;
  }

  portStats(portId: number): PortStatsView {
    const p = this.byPort.get(portId);
    if (p === undefined) throw new Error(`port ${portId} was not read for this evaluation`);
    return p.stats;
  }
}
