/**
 * A pixel-exact RGB canvas for the soak's plot: single pixels and one-pixel lines, no blending (the
 * captcha's anti-aliased raster, appliance/auth/raster.ts, draws strokes, not charts).
 * appliance/auth/png.ts encodes it.
 */
export type Rgb = readonly [number, number, number];

export class Canvas {
  readonly rgb: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.rgb = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.rgb.set(background, i * 3);
  }

  set(x: number, y: number, c: Rgb): void {
    const xi = Math.round(x);
    const yi = Math.round(y);
    if (xi < 0 || yi < 0 || xi >= this.width || yi >= this.height) return;
    this.rgb.set(c, (yi * this.width + xi) * 3);
  }

  /** A straight line, one pixel wide (the larger axis stepped pixel by pixel). */
  line(x0: number, y0: number, x1: number, y1: number, c: Rgb): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let i = 0; i <= steps; i++) this.set(x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps, c);
  }
}
