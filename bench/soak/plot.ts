/**
 * The soak's figure: one panel per reading (RSS, heap, descriptors, sessions, database size), each
 * against minutes since the start, with its range written beside it.
 */

import { Canvas, type Rgb } from "./canvas.ts";
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from "./font.ts";

export interface PlotSeries {
  title: string;
  values: number[];
}

const WIDTH = 960;
const PANEL_HEIGHT = 150;
const LEFT = 110;
const RIGHT = 20;
const TOP = 34;
const GAP = 44;
const SCALE = 2;
const INK: Rgb = [30, 30, 30];
const FRAME: Rgb = [170, 170, 170];
const GRID: Rgb = [225, 225, 225];
const LINE: Rgb = [31, 119, 180];

export function text(r: Canvas, x: number, y: number, s: string, c: Rgb = INK, scale = SCALE): void {
  [...s].forEach((ch, i) => {
    for (const [gx, gy] of glyph(ch))
      for (let dx = 0; dx < scale; dx++)
        for (let dy = 0; dy < scale; dy++)
          r.set(x + (i * (GLYPH_WIDTH + 1) + gx) * scale + dx, y + gy * scale + dy, c);
  });
}

const textWidth = (s: string, scale = SCALE) => s.length * (GLYPH_WIDTH + 1) * scale;

/** Three significant figures, k/M/G above a thousand. */
export function figure(v: number): string {
  const units = ["", "K", "M", "G"];
  let u = 0;
  let x = v;
  while (Math.abs(x) >= 1000 && u < units.length - 1) {
    x /= 1000;
    u++;
  }
  return `${Number(x.toPrecision(3))}${units[u]}`;
}

export function plot(minutes: number[], series: PlotSeries[], caption: string): Canvas {
  const height = TOP + series.length * (PANEL_HEIGHT + GAP) + 10;
  const r = new Canvas(WIDTH, height);
  text(r, LEFT, 8, caption);
  const t0 = minutes[0] ?? 0;
  const t1 = Math.max(t0 + 1e-9, minutes[minutes.length - 1] ?? 0);
  const plotWidth = WIDTH - LEFT - RIGHT;
  series.forEach((s, k) => {
    const top = TOP + k * (PANEL_HEIGHT + GAP) + GLYPH_HEIGHT * SCALE + 6;
    const bottom = top + PANEL_HEIGHT - GLYPH_HEIGHT * SCALE - 6;
    let lo = Math.min(...s.values);
    let hi = Math.max(...s.values);
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) lo = hi = 0;
    if (hi - lo < 1e-9) {
      hi += 1;
      lo = Math.max(0, lo - 1);
    }
    const xOf = (m: number) => LEFT + ((m - t0) / (t1 - t0)) * plotWidth;
    const yOf = (v: number) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    text(r, LEFT, top - GLYPH_HEIGHT * SCALE - 4, s.title);
    for (let q = 1; q < 4; q++)
      r.line(LEFT, top + ((bottom - top) * q) / 4, LEFT + plotWidth, top + ((bottom - top) * q) / 4, GRID);
    r.line(LEFT, top, LEFT + plotWidth, top, FRAME);
    r.line(LEFT, bottom, LEFT + plotWidth, bottom, FRAME);
    r.line(LEFT, top, LEFT, bottom, FRAME);
    r.line(LEFT + plotWidth, top, LEFT + plotWidth, bottom, FRAME);
    const hiLabel = figure(hi);
    const loLabel = figure(lo);
    text(r, LEFT - 8 - textWidth(hiLabel), top, hiLabel);
    text(r, LEFT - 8 - textWidth(loLabel), bottom - GLYPH_HEIGHT * SCALE, loLabel);
    const startLabel = `${Math.round(t0 * 10) / 10} MIN`;
    const endLabel = `${Math.round(t1 * 10) / 10} MIN`;
    text(r, LEFT, bottom + 6, startLabel);
    text(r, LEFT + plotWidth - textWidth(endLabel), bottom + 6, endLabel);
    for (let i = 1; i < s.values.length; i++) {
      const a = s.values[i - 1] as number;
      const b = s.values[i] as number;
      const x0 = xOf(minutes[i - 1] as number);
      const x1 = xOf(minutes[i] as number);
      // two pixels wide so that it reads at a glance
      r.line(x0, yOf(a), x1, yOf(b), LINE);
      r.line(x0, yOf(a) + 1, x1, yOf(b) + 1, LINE);
    }
    if (s.values.length === 1) r.set(xOf(minutes[0] as number), yOf(s.values[0] as number), LINE);
  });
  return r;
}
