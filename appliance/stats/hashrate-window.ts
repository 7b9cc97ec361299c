/**
 * Accepted work over time in fixed rings: fifteen one-minute buckets (current and 15 min) and
 * twenty-four one-hour buckets (4 h and 24 h, each the last full hours plus the current one).
 * 156 bytes per window once work arrives (none before), in the thread's shared arena
 * (ring-arena.ts); no per-share allocation. A window whose owner is forgotten gives its place back
 * with `release`.
 */
import type { HashrateView } from "../domain/engine.ts";
import { RingArena } from "./ring-arena.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MINUTES = 15;
const HOURS = 24;
/** "current" is the average over the last few minutes: one share a minute is too noisy for less. */
const CURRENT_MINUTES = 3;

/** every window's buckets: MINUTES one-minute buckets, then HOURS one-hour buckets */
export const ringArena = new RingArena(MINUTES + HOURS);
/** `place` of a window before its first work */
const NONE = -1;
/** `place` of a released window: work for it is dropped rather than given a new place */
const RELEASED = -2;

export class HashrateWindow {
  private place = NONE;
  private minute = 0;
  private hour = 0;
  private readonly since: number;

  constructor(now: number) {
    this.since = now;
    this.minute = Math.floor(now / MINUTE);
    this.hour = Math.floor(now / HOUR);
  }

  add(work: number, now: number): void {
    if (this.place === RELEASED) return;
    this.advance(now);
    if (this.place === NONE) this.place = ringArena.take();
    const b = ringArena.block(this.place);
    const at = ringArena.offset(this.place);
    b[at + (this.minute % MINUTES)] += work;
    b[at + MINUTES + (this.hour % HOURS)] += work;
  }

  /** Gives the buckets back to the arena; the window reads zero from now on. */
  release(): void {
    if (this.place >= 0) ringArena.give(this.place);
    this.place = RELEASED;
  }

  private advance(now: number): void {
    const m = Math.floor(now / MINUTE);
    const q = Math.floor(now / HOUR);
    if (this.place >= 0) {
      const b = ringArena.block(this.place);
      const at = ringArena.offset(this.place);
      const minutes = Math.min(m - this.minute, MINUTES);
      const hours = Math.min(q - this.hour, HOURS);
      for (let i = 1; i <= minutes; i++) b[at + ((this.minute + i) % MINUTES)] = 0;
      for (let i = 1; i <= hours; i++) b[at + MINUTES + ((this.hour + i) % HOURS)] = 0;
    }
    this.minute = m;
    this.hour = q;
  }

  private sumMinutes(n: number): number {
    if (this.place < 0) return 0;
    const b = ringArena.block(this.place);
    const at = ringArena.offset(this.place);
    let s = 0;
    for (let i = 0; i < n; i++) s += b[at + ((this.minute - i + MINUTES * 2) % MINUTES)] as number;
    return s;
  }

  private sumHours(n: number): number {
    if (this.place < 0) return 0;
    const b = ringArena.block(this.place);
    const at = ringArena.offset(this.place);
    let s = 0;
    for (let i = 0; i < n; i++) s += b[at + MINUTES + ((this.hour - i + HOURS * 2) % HOURS)] as number;
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

/** What a forgotten device keeps as its windows: released, so work for it is dropped. */
export const releasedWindow = new HashrateWindow(0);
releasedWindow.release();

export const zeroRates = (): HashrateView => ({ current: 0, m15: 0, h4: 0, h24: 0 });

export function addRates(a: HashrateView, b: HashrateView): HashrateView {
  return { current: a.current + b.current, m15: a.m15 + b.m15, h4: a.h4 + b.h4, h24: a.h24 + b.h24 };
}
