/**
 * Login captcha image (spec §4, §6): an SVG data URL in which every character is drawn as a wobbly
 * stroked path from a built-in stroke font, rotated, scaled and sheared at random, mixed with noise
 * curves, dots and decoy strokes, and with all elements shuffled. There is no <text> element and no
 * element order that spells the code, so the answer cannot be read out of the markup; it has to be
 * seen. Checking answers (single use, expiry) is the login module's job, not this one's.
 */

/** No 0/O/Q, 1/I/L... pairs a person would confuse: I, O, Q, G, B, S, Z and 0, 1, 2, 5, 8 are out. */
export const CAPTCHA_ALPHABET = "ACDEFHJKLMNPRTUVWXY34679";

type Point = readonly [number, number];
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

const WIDTH = 120;
const HEIGHT = 40;

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

/** One decimal: short markup, and never four adjacent digits that could spell a numeric code. */
function n(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** hsl() rather than hex, so colours cannot contain code-like letter or digit runs either. */
function colour(lightness: [number, number]): string {
  return `hsl(${Math.floor(rand(0, 360))},${Math.floor(rand(45, 85))}%,${Math.floor(rand(...lightness))}%)`;
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

/** A stroke as a roughened path: every segment is split and its middle pushed aside a little. */
function strokePath(stroke: Stroke, at: Placement): string {
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
  const [first, ...rest] = pts;
  if (!first) return "";
  // quadratic joins through the split points give a hand-drawn curve rather than straight segments
  let d = `M${n(first[0])} ${n(first[1])}`;
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const c = rest[i];
    const e = rest[i + 1];
    if (c && e) d += `Q${n(c[0])} ${n(c[1])} ${n(e[0])} ${n(e[1])}`;
  }
  return d;
}

function pathElement(d: string, stroke: string, width: number): string {
  return `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${n(width)}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

function noiseCurve(): string {
  const d =
    `M${n(rand(-5, 15))} ${n(rand(0, HEIGHT))}` +
    `C${n(rand(20, 50))} ${n(rand(-10, HEIGHT + 10))} ${n(rand(70, 100))} ${n(rand(-10, HEIGHT + 10))} ` +
    `${n(rand(105, WIDTH + 5))} ${n(rand(0, HEIGHT))}`;
  return pathElement(d, colour([50, 75]), rand(0.6, 1.3));
}

function noiseDot(): string {
  return `<circle cx="${n(rand(0, WIDTH))}" cy="${n(rand(0, HEIGHT))}" r="${n(rand(0.6, 1.6))}" fill="${colour([30, 75])}"/>`;
}

/** A stroke of a random glyph, small and faint, so stroke counts do not identify the characters. */
function decoyStroke(): string {
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
  return pathElement(strokePath(stroke, at), colour([55, 80]), rand(0.7, 1.2));
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const a = items[i] as T;
    items[i] = items[j] as T;
    items[j] = a;
  }
  return items;
}

/**
 * The image for `code` as "data:image/svg+xml;base64,...". Letters are drawn upper-case (answers are
 * compared case-insensitively); characters outside A–Z and 0–9 are refused, because drawing a blank
 * would make a captcha nobody can answer.
 */
export function renderCaptcha(code: string): string {
  const cell = WIDTH / (code.length + 0.6);
  const elements: string[] = [];
  [...code.toUpperCase()].forEach((ch, i) => {
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`captcha: cannot draw character: ${JSON.stringify(ch)}`);
    const angle = rand(-0.45, 0.45);
    const at: Placement = {
      cx: cell * (i + 0.8) + rand(-2, 2),
      cy: HEIGHT / 2 + rand(-3, 3),
      scale: rand(3.6, 4.4),
      cos: Math.cos(angle),
      sin: Math.sin(angle),
      shear: rand(-0.35, 0.35),
    };
    const ink = colour([20, 45]);
    const width = rand(2, 2.8);
    for (const stroke of glyph) elements.push(pathElement(strokePath(stroke, at), ink, width));
  });
  for (let i = 0; i < 4; i++) elements.push(noiseCurve());
  for (let i = 0; i < 4; i++) elements.push(decoyStroke());
  for (let i = 0; i < 28; i++) elements.push(noiseDot());
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${colour([88, 96])}"/>` +
    shuffle(elements).join("") +
    "</svg>";
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}
