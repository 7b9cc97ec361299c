/** The proxy modes by code (spec §4). */
import type { ProxyModeCode } from "../../domain/port.ts";
import { COMPATIBLE } from "./compatible.ts";
import { EFFICIENT } from "./efficient.ts";
import type { ModeStrategy } from "./mode.ts";
import { POOL } from "./pool.ts";

const MODES: Record<ProxyModeCode, ModeStrategy> = { 0: EFFICIENT, 1: COMPATIBLE, 2: POOL };

export function modeOf(code: number): ModeStrategy | null {
  return MODES[code as ProxyModeCode] ?? null;
}
