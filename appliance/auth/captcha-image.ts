/**
 * Login captcha image (spec §4, §6): a PNG data URL. Every character is drawn from a built-in stroke
 * font as wobbly thick strokes, rotated, scaled and sheared at random, over a tinted background with
 * noise curves, decoy strokes and speckles, and rasterised to pixels here (raster.ts, png.ts): the
 * answer is nowhere in the markup or the bytes, it has to be seen. Checking answers (single use,
 * expiry) is the login module's job, not this one's.
 */
import { encodePng } from "./png.ts";
import { hsl, type Point, Raster, type Rgb } from "./raster.ts";

/** No 0/O/Q, 1/I/L... pairs a person would confuse: I, O, Q, G, B, S, Z and 0, 1, 2, 5, 8 are out. */
export const CAPTCHA_ALPHABET = "ACDEFHJKLMNPRTUVWXY34679";

type Stroke = readonly Point[];

/**
 * Glyphs on a 4 × 6 grid (x right, y down): strokes separated by "|", points by spaces. Curves are short
 * polylines; drawing roughens them. Kept as strings so the font stays readable at a glance.
 */
const FONT: Readonly<Record<string, string>> = {
  A: "0,6 2,0 4,6|1,4 3,4",
  C: "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5",
  D: "0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0",
  E: "4,0 0,0 0,6 4,6|0,3 3,3",
  F: "4,0 0,0 0,6|0,3 3,3",
  H: "0,0 0,6|4,0 4,6|0,3 4,3",
  J: "4,0 4,5 3,6 1,6 0,5",
  K: "0,0 0,6|4,0 0,3.5|1.3,2.7 4,6",
  L: "0,0 0,6 4,6",
  M: "0,6 0,0 2,3.5 4,0 4,6",
  N: "0,6 0,0 4,6 4,0",
  P: "0,6 0,0 3,0 4,1 4,2 3,3 0,3",
  R: "0,6 0,0 3,0 4,1 4,2 3,3 0,3|2,3 4,6",
  T: "0,0 4,0|2,0 2,6",
  U: "0,0 0,5 1,6 3,6 4,5 4,0",
  V: "0,0 2,6 4,0",
  W: "0,0 1,6 2,2.5 3,6 4,0",
  X: "0,0 4,6|4,0 0,6",
  Y: "0,0 2,3 4,0|2,3 2,6",
  "3": "0,0.5 1,0 3,0 4,1 4,2 3,3 1.5,3|3,3 4,4 4,5 3,6 1,6 0,5.5",
  "4": "3,6 3,0 0,4 4,4",
  "6": "3.5,0 1.5,0 0,2 0,5 1,6 3,6 4,5 4,4 3,3 1,3 0,4",
  "7": "0,0 4,0 1.5,6",
  "9": "4,2 3,3 1,3 0,2 0,1 1,0 3,0 4,1 4,4 2.5,6 0.5,6",
  // Not in the random alphabet, but drawable: --test-captcha and callers may pass any A–Z, 0–9 code.
  B: "0,0 0,6 3,6 4,5 4,4 3,3 0,3|0,0 3,0 4,1 4,2 3,3",
  G: "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.5 2.5,3.5",
  I: "1,0 3,0|2,0 2,6|1,6 3,6",
  O: "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",
  Q: "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0|2.5,4.5 4,6.3",
  S: "4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5",
  Z: "0,0 4,0 0,6 4,6",
  "0": "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0|0.8,5 3.2,1",
  "1": "1,1 2,0 2,6|1,6 3,6",
  "2": "0,1 1,0 3,0 4,1 4,2 0,6 4,6",
  "5": "4,0 0,0 0,3 3,3 4,4 4,5 3,6 1,6 0,5",
  "8": "1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3|1,3 0,2 0,1 1,0",
};

function parsePoint(xy: string): Point {
  const [x, y] = xy.split(",").map(Number);
  return [x ?? 0, y ?? 0];
}

const GLYPHS: Readonly<Record<string, readonly Stroke[]>> = Object.fromEntries(
  Object.entries(FONT).map(([ch, spec]) => [ch, spec.split("|").map((s) => s.split(" ").map(parsePoint))]),
);

/** The drawing's units; SCALE pixels per unit keeps the strokes smooth on high-density screens. */
const WIDTH = 120;
const HEIGHT = 40;
const SCALE = 2;

/** Uniform random integer in [0, n) from the CSPRNG, without modulo bias. */
function randomIndex(n: number): number {
  const limit = Math.floor(256 / n) * n;
  const byte = new Uint8Array(1);
  for (;;) {
    crypto.getRandomValues(byte);
    const b = byte[0] ?? 0;
    if (b < limit) return b % n;
  }
}

/** A code of `length` characters from CAPTCHA_ALPHABET, drawn with crypto.getRandomValues. */
export function randomCaptchaCode(length = 4): string {
  let code = "";
  for (let i = 0; i < length; i++) code += CAPTCHA_ALPHABET[randomIndex(CAPTCHA_ALPHABET.length)];
  return code;
}

/** Distortion only has to be unpredictable enough to vary; the code itself comes from the CSPRNG. */
function rand(min: number, max: number): number {
  return min + Math.random() * (max - min);
}

function colour(lightness: [number, number]): Rgb {
  return hsl(rand(0, 360), rand(45, 85), rand(...lightness));
}

interface Placement {
  cx: number;
  cy: number;
  scale: number;
  cos: number;
  sin: number;
  shear: number;
}

function place(p: Point, at: Placement): Point {
  // centre the 4 × 6 glyph on the origin, shear, rotate, scale, move to the cell centre
  const x0 = p[0] - 2 + rand(-0.22, 0.22);
  const y0 = p[1] - 3 + rand(-0.22, 0.22);
  const x1 = x0 + at.shear * y0;
  return [at.cx + at.scale * (x1 * at.cos - y0 * at.sin), at.cy + at.scale * (x1 * at.sin + y0 * at.cos)];
}

/** Points along the quadratic curve from `a` through control `c` to `b`. */
function quadratic(a: Point, c: Point, b: Point, steps = 6): Point[] {
  const out: Point[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    out.push([
      u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
      u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
    ]);
  }
  return out;
}

/**
 * A stroke as a roughened curve: every segment is split and its middle pushed aside a little, and the
 * points are joined by quadratic curves through the split points, so it looks hand-drawn.
 */
function roughen(stroke: Stroke, at: Placement): Point[] {
  const pts: Point[] = [];
  for (let i = 0; i < stroke.length; i++) {
    const p = stroke[i];
    if (p === undefined) continue;
    const prev = stroke[i - 1];
    if (prev !== undefined) {
      pts.push(place([(prev[0] + p[0]) / 2 + rand(-0.3, 0.3), (prev[1] + p[1]) / 2 + rand(-0.3, 0.3)], at));
    }
    pts.push(place(p, at));
  }
  const first = pts[0];
  if (!first) return [];
  const out: Point[] = [first];
  for (let i = 1; i + 1 < pts.length; i += 2)
    out.push(...quadratic(out[out.length - 1] as Point, pts[i] as Point, pts[i + 1] as Point));
  return out;
}

function noiseCurve(image: Raster): void {
  const p0: Point = [rand(-5, 15), rand(0, HEIGHT)];
  const p1: Point = [rand(20, 50), rand(-10, HEIGHT + 10)];
  const p2: Point = [rand(70, 100), rand(-10, HEIGHT + 10)];
  const p3: Point = [rand(105, WIDTH + 5), rand(0, HEIGHT)];
  const pts: Point[] = [];
  for (let i = 0; i <= 24; i++) {
    const t = i / 24;
    const u = 1 - t;
    const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t] as const;
    pts.push([
      w[0] * p0[0] + w[1] * p1[0] + w[2] * p2[0] + w[3] * p3[0],
      w[0] * p0[1] + w[1] * p1[1] + w[2] * p2[1] + w[3] * p3[1],
    ]);
  }
  image.polyline(pts, rand(0.6, 1.3), colour([35, 70]));
}

/** A stroke of a random glyph, small and faint, so that stroke shapes alone do not spell the code. */
function decoyStroke(image: Raster): void {
  const glyph = GLYPHS[CAPTCHA_ALPHABET[randomIndex(CAPTCHA_ALPHABET.length)] ?? "A"] ?? [];
  const stroke = glyph[randomIndex(glyph.length)] ?? [];
  const angle = rand(0, Math.PI * 2);
  const at: Placement = {
    cx: rand(0, WIDTH),
    cy: rand(0, HEIGHT),
    scale: rand(1.5, 2.5),
    cos: Math.cos(angle),
    sin: Math.sin(angle),
    shear: 0,
  };
  image.polyline(roughen(stroke, at), rand(0.7, 1.2), colour([50, 75]));
}

/**
 * The image for `code` as "data:image/png;base64,...". Letters are drawn upper-case (answers are
 * compared case-insensitively); characters outside A–Z and 0–9 are refused, because drawing a blank
 * would make a captcha nobody can answer.
 */
export function renderCaptcha(code: string): string {
  const glyphs = [...code.toUpperCase()].map((ch) => {
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`captcha: cannot draw character: ${JSON.stringify(ch)}`);
    return glyph;
  });
  const from = colour([86, 95]);
  const to = colour([86, 95]);
  const image = new Raster(WIDTH, HEIGHT, SCALE, (x) => {
    const t = x / WIDTH;
    return [0, 1, 2].map((c) => Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t)) as unknown as Rgb;
  });
  for (let i = 0; i < 3; i++) noiseCurve(image);
  for (let i = 0; i < 4; i++) decoyStroke(image);
  const cell = WIDTH / (glyphs.length + 0.6);
  glyphs.forEach((glyph, i) => {
    const angle = rand(-0.45, 0.45);
    const at: Placement = {
      cx: cell * (i + 0.8) + rand(-2, 2),
      cy: HEIGHT / 2 + rand(-3, 3),
      scale: rand(3.6, 4.4),
      cos: Math.cos(angle),
      sin: Math.sin(angle),
      shear: rand(-0.35, 0.35),
    };
    const ink = colour([15, 40]);
    const width = rand(2, 2.8);
    for (const stroke of glyph) image.polyline(roughen(stroke, at), width, ink);
  });
  // over the letters: two more curves and speckles, so that the ink is not a clean shape to trace
  for (let i = 0; i < 2; i++) noiseCurve(image);
  for (let i = 0; i < 90; i++)
    image.dot([rand(0, WIDTH), rand(0, HEIGHT)], rand(0.3, 0.9), colour([25, 80]), rand(0.5, 1));
  return `data:image/png;base64,${encodePng(image.pixelWidth, image.pixelHeight, image.rgb).toString("base64")}`;
}
