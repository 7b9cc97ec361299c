/** A small RGB canvas for the captcha: anti-aliased thick polylines and dots, blended over a background. */

export type Point = readonly [number, number];
export type Rgb = readonly [number, number, number];

/** hsl(h, s %, l %) as 8-bit RGB. */
export function hsl(h: number, s: number, l: number): Rgb {
  const sat = s / 100;
  const lig = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number) => lig - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/**
 * Drawing happens in the caller's units; `scale` pixels per unit gives the image its resolution. A
 * pixel's coverage is how far its centre lies inside the shape, clamped to 0–1 (one pixel of soft edge).
 */
export class Raster {
  readonly rgb: Uint8Array;
  readonly pixelWidth: number;
  readonly pixelHeight: number;
  /** a stroke's coverage per pixel, so that its overlapping segments blend once (the largest wins) */
  private readonly coverage: Float32Array;
  private readonly stamp: Uint32Array;
  private stroke = 0;

  constructor(
    width: number,
    height: number,
    private readonly scale: number,
    background: (x: number) => Rgb,
  ) {
    this.pixelWidth = Math.round(width * scale);
    this.pixelHeight = Math.round(height * scale);
    const n = this.pixelWidth * this.pixelHeight;
    this.rgb = new Uint8Array(n * 3);
    this.coverage = new Float32Array(n);
    this.stamp = new Uint32Array(n);
    // the ground varies along x only: draw the first row, then copy it down
    for (let x = 0; x < this.pixelWidth; x++) this.rgb.set(background(x / scale), x * 3);
    const row = this.pixelWidth * 3;
    for (let y = 1; y < this.pixelHeight; y++) this.rgb.copyWithin(y * row, 0, row);
  }

  /** A stroke through `points`, `width` units thick, with round joins and caps. */
  polyline(points: readonly Point[], width: number, colour: Rgb, alpha = 1): void {
    const first = points[0];
    if (!first) return;
    this.stroke++;
    const touched: number[] = [];
    const half = (width * this.scale) / 2;
    let prev = first;
    for (let i = points.length === 1 ? 0 : 1; i < points.length; i++) {
      const p = points[i] as Point;
      this.segment(
        prev[0] * this.scale,
        prev[1] * this.scale,
        p[0] * this.scale,
        p[1] * this.scale,
        half,
        touched,
      );
      prev = p;
    }
    for (const at of touched) {
      const cover = (this.coverage[at] ?? 0) * alpha;
      for (let c = 0; c < 3; c++) {
        const old = this.rgb[at * 3 + c] ?? 0;
        this.rgb[at * 3 + c] = Math.round(old + ((colour[c] ?? 0) - old) * cover);
      }
    }
  }

  dot(centre: Point, radius: number, colour: Rgb, alpha = 1): void {
    this.polyline([centre], radius * 2, colour, alpha);
  }

  /** Records the coverage of the capsule from (ax, ay) to (bx, by), `half` pixels either side. */
  private segment(ax: number, ay: number, bx: number, by: number, half: number, touched: number[]): void {
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half - 1));
    const x1 = Math.min(this.pixelWidth - 1, Math.ceil(Math.max(ax, bx) + half + 1));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half - 1));
    const y1 = Math.min(this.pixelHeight - 1, Math.ceil(Math.max(ay, by) + half + 1));
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const reach2 = (half + 0.5) ** 2;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5 - ax;
        const py = y + 0.5 - ay;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        const d2 = ex * ex + ey * ey;
        // most of a slanted segment's box lies outside it: skip those pixels before the square root
        if (d2 >= reach2) continue;
        const cover = Math.min(1, half + 0.5 - Math.sqrt(d2));
        const at = y * this.pixelWidth + x;
        if (this.stamp[at] !== this.stroke) {
          this.stamp[at] = this.stroke;
          this.coverage[at] = cover;
          touched.push(at);
        } else if (cover > (this.coverage[at] ?? 0)) this.coverage[at] = cover;
      }
    }
  }
}
