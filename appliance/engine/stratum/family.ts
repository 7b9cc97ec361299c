/**
 * The seam between a proxy port and the protocol family its coin speaks (design.md, "engine/stratum").
 * The port owns what every family shares: listener and admission, the fee scheduler, the main ↔
 * standby route, the log and the counters. A family owns its miners' sessions, its pool sessions and
 * its jobs, behind one FamilyRuntime per running port. Adding a family is adding a folder that
 * exports a Family and one line in families.ts.
 */
import type { EngineTiming, LogLevel } from "../../domain/engine.ts";
import type { Port, ProxyModeCode } from "../../domain/port.ts";
import type { DeviceRegistry } from "../../stats/device-registry.ts";
import type { FeeScheduler } from "../fee/scheduler.ts";
import type { ModeStrategy } from "../modes/mode.ts";
import type { Endpoint } from "../transport/endpoint.ts";
import type { ByteSocket } from "../transport/line-writer.ts";

/** What a running port gives its family. */
export interface PortContext {
  readonly portId: number;
  /** the port's configuration; replaced (never mutated) by an edit */
  readonly config: Port;
  readonly category: string;
  readonly mode: ModeStrategy;
  /** hashes one unit of share difficulty stands for (the catalogue's factor) */
  readonly factor: number;
  readonly fee: FeeScheduler;
  readonly registry: DeviceRegistry;
  readonly timing: EngineTiming;
  /** the pool the port's main work goes to now (main or standby), null when none is configured */
  mainEndpoint(): Endpoint | null;
  /** a main pool session ended; `healthy` when it had delivered work (drives the failover) */
  mainDown(endpoint: Endpoint, reason: string, healthy: boolean): void;
  /** the agent presented upstream: setting.ra when set, else the miner's own, else the proxy's */
  agentFor(minerAgent: string | null): string;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /** a miner connection the port admitted has ended (connection limit, the IP list) */
  connectionClosed(ip: string): void;
}

/** A miner's connection as the listener drives it. */
export interface MinerConnection {
  onData(chunk: Uint8Array): void;
  onDrain(): void;
  close(reason: string): void;
}

/** A family's side of one running port. */
export interface FamilyRuntime {
  /**
   * a miner the port admitted; `tunnelled`: a stream of an RMS tunnel, which may be another
   * Pithead's pool session (a family may give it more nonce space: docs/rms-tunnel.md)
   */
  accept(socket: ByteSocket, ip: string, tunnelled?: boolean): MinerConnection;
  /** the listener is up (Pool mode opens its shared main session here) */
  start(): void;
  /** every miner and pool session closes */
  stop(): void;
  /** the main pool changed (failover, fail-back, edited address): every main session moves */
  rehomeMain(reason: string): void;
  /** fee wallets or ratio overrides changed */
  refreshFee(): void;
  /** periodic housekeeping (idle fee sessions) */
  sweep(now: number): void;
  /** miners logged in */
  readonly online: number;
  /** miner connections open, logged in or not */
  readonly connected: number;
  sessionCounts(): { main: number; fee: number };
}

export interface Family {
  readonly name: string;
  /** the proxy modes this family implements; the catalogue offers no others */
  readonly modes: readonly ProxyModeCode[];
  runtime(ctx: PortContext): FamilyRuntime;
  /**
   * Logs in to the pool at `endpoint` the way this family's sessions do and resolves with the time
   * it took, or rejects with the reason (fail-back probe).
   */
  probe(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number>;
}
