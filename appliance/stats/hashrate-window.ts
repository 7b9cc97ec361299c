/**
 * Accepted work over time in fixed rings: fifteen one-minute buckets (current and 15 min) and
 * twenty-four one-hour buckets (4 h and 24 h, each the last full hours plus the current one).
 * 156 bytes per window once work arrives (none before), no per-share allocation.
 */
import type { HashrateView } from "../domain/engine.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MINUTES = 15;
const HOURS = 24;
/** "current" is the average over the last few minutes: one share a minute is too noisy for less. */
const CURRENT_MINUTES = 3;

export class HashrateWindow {
  /** one allocation: MINUTES one-minute buckets, then HOURS one-hour buckets */
  private rings: Float32Array | null = null;
  private minute = 0;
  private hour = 0;
  private readonly since: number;

  constructor(now: number) {
    this.since = now;
    this.minute = Math.floor(now / MINUTE);
    this.hour = Math.floor(now / HOUR);
  }

  add(work: number, now: number): void {
    this.advance(now);
    this.rings ??= new Float32Array(MINUTES + HOURS);
    this.rings[this.minute % MINUTES] += work;
    this.rings[MINUTES + (this.hour % HOURS)] += work;
  }

  private advance(now: number): void {
    const m = Math.floor(now / MINUTE);
    if (m !== this.minute) {
      const steps = Math.min(m - this.minute, MINUTES);
      if (this.rings) for (let i = 1; i <= steps; i++) this.rings[(this.minute + i) % MINUTES] = 0;
      this.minute = m;
    }
    const q = Math.floor(now / HOUR);
    if (q !== this.hour) {
      const steps = Math.min(q - this.hour, HOURS);
      if (this.rings) for (let i = 1; i <= steps; i++) this.rings[MINUTES + ((this.hour + i) % HOURS)] = 0;
      this.hour = q;
    }
  }

  private sumMinutes(n: number): number {
    if (this.rings === null) return 0;
    let s = 0;
    for (let i = 0; i < n; i++) s += this.rings[(this.minute - i + MINUTES * 2) % MINUTES] as number;
    return s;
  }

  private sumHours(n: number): number {
    if (this.rings === null) return 0;
    let s = 0;
    for (let i = 0; i < n; i++) s += this.rings[MINUTES + ((this.hour - i + HOURS * 2) % HOURS)] as number;
    return s;
  }

  /** Hashes per second over each window, divided by the time actually observed when younger. */
  rates(now: number): HashrateView {
    this.advance(now);
    const age = Math.max(1, (now - this.since) / 1000);
    const inMinute = (now % MINUTE) / 1000;
    const inHour = (now % HOUR) / 1000;
    const span = (full: number) => Math.max(1, Math.min(age, full));
    return {
      current: this.sumMinutes(CURRENT_MINUTES) / span((CURRENT_MINUTES - 1) * 60 + inMinute),
      m15: this.sumMinutes(MINUTES) / span((MINUTES - 1) * 60 + inMinute),
      h4: this.sumHours(4) / span(3 * 3600 + inHour),
      h24: this.sumHours(HOURS) / span((HOURS - 1) * 3600 + inHour),
    };
  }
}

export const zeroRates = (): HashrateView => ({ current: 0, m15: 0, h4: 0, h24: 0 });

export function addRates(a: HashrateView, b: HashrateView): HashrateView {
  return { current: a.current + b.current, m15: a.m15 + b.m15, h4: a.h4 + b.h4, h24: a.h24 + b.h24 };
}
