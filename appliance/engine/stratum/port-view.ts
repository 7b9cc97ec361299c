/**
 * PortView: a running port's context as a family's sessions and lanes read it (the port's
 * configuration, mode, fee scheduler, registry, timings and log), so that a family runtime can be
 * handed to them as their host without repeating the same accessors in every family.
 */
import type { EngineTiming, LogLevel } from "../../domain/engine.ts";
import type { Port } from "../../domain/port.ts";
import type { DeviceRegistry } from "../../stats/device-registry.ts";
import type { FeeScheduler } from "../fee/scheduler.ts";
import type { ModeStrategy } from "../modes/mode.ts";
import type { PortContext } from "./family.ts";

export abstract class PortView {
  constructor(protected readonly ctx: PortContext) {}

  get portId(): number {
    return this.ctx.portId;
  }
  get config(): Port {
    return this.ctx.config;
  }
  get category(): string {
    return this.ctx.category;
  }
  get factor(): number {
    return this.ctx.factor;
  }
  get mode(): ModeStrategy {
    return this.ctx.mode;
  }
  get fee(): FeeScheduler {
    return this.ctx.fee;
  }
  get registry(): DeviceRegistry {
    return this.ctx.registry;
  }
  get timing(): EngineTiming {
    return this.ctx.timing;
  }
  get backoffMs(): number {
    return this.ctx.timing.reconnectBackoffMs;
  }
  log(level: LogLevel, message: string): void {
    this.ctx.log(level, message);
  }
  isWalletBanned(wallet: string): boolean {
    return this.ctx.isWalletBanned(wallet);
  }
}
