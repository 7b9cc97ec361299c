/** Hashrate chart data (columnar, uPlot-ready). DOM-free. */
import type { HashrateView } from "./sys-types.ts";

export const AVG_WINDOWS = [900, 14400, 86400] as const;

/** The server's average for a window: 15 min, 4 h or 24 h. */
export function averageFor(view: HashrateView | undefined, windowSec: number): number {
  if (!view) return 0;
  if (windowSec <= 900) return view.m15;
  if (windowSec <= 14400) return view.h4;
  return view.h24;
}

export interface Columns {
  t: number[];
  h: number[];
}

/** Appends a sample, keeping at most `max` points. */
export function appendSample(c: Columns, t: number, h: number, max = 360): Columns {
  const tt = [...c.t, t];
  const hh = [...c.h, h];
  const cut = Math.max(0, tt.length - max);
  return { t: tt.slice(cut), h: hh.slice(cut) };
}
