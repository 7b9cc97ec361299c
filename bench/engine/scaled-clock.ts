/**
 * Scaled time for the socket-level fee matrix (fee-sockets.ts): the proxy child's fee scheduler and
 * the fake miners' pacing both read `scale`× the wall clock from a shared origin, so hours of slow
 * miners fit in seconds and fast farms can run slower than real time. Both processes derive it from
 * the same wall clock, so they agree without exchanging anything.
 */
import type { EngineTiming } from "../../appliance/domain/engine.ts";

export interface TimeScale {
  /** wall-clock ms (epoch) at which scaled and wall time coincide */
  originMs: number;
  /** scaled seconds per wall second */
  scale: number;
  /** engine timings for the child, already converted to wall ms */
  timing: Partial<EngineTiming>;
}

/** Wall clock with sub-millisecond resolution, comparable across processes. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export const scaledClock =
  (t: TimeScale): (() => number) =>
  () =>
    t.originMs + (wallNow() - t.originMs) * t.scale;
