/** Pure display helpers (spec §9): hashrate in steps of 1000 with two decimals, durations, bytes. */

const PREFIXES = ["", "K", "M", "G", "T", "P", "E", "Z"];

/** `unit`: what the coin's hashrate counts — "H" (hashes), "Sol" (Equihash) or "G" (Cuckatoo graphs). */
export function formatHashrate(rate: number, unit = "H"): string {
  if (!Number.isFinite(rate) || rate <= 0) return `0.00 ${unit}/s`;
  let v = rate;
  let i = 0;
  while (v >= 1000 && i < PREFIXES.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(2)} ${PREFIXES[i]}${unit}/s`;
}

const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return "0 B";
  let v = n;
  let i = 0;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(2)} ${BYTE_UNITS[i]}`;
}

export interface DurationLabels {
  d: string;
  h: string;
  m: string;
  s: string;
}

/** Days, hours, minutes and seconds, largest first, zero parts after the first omitted. */
export function formatDuration(
  totalSeconds: number,
  l: DurationLabels = { d: "d", h: "h", m: "m", s: "s" },
): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const parts: [number, string][] = [
    [Math.floor(s / 86400), l.d],
    [Math.floor((s % 86400) / 3600), l.h],
    [Math.floor((s % 3600) / 60), l.m],
    [s % 60, l.s],
  ];
  const first = parts.findIndex(([v]) => v > 0);
  if (first < 0) return `0${l.s}`;
  return parts
    .slice(first)
    .filter(([v], i) => i === 0 || v > 0)
    .map(([v, u]) => `${v}${u}`)
    .join(" ");
}

/** A 0..1 ratio as a percent with up to two decimals. */
export function formatPercent(ratio: number): string {
  return `${Number((ratio * 100).toFixed(2))}%`;
}

export function formatTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "" || value === 0) return "-";
  const d = new Date(typeof value === "number" && value < 1e12 ? value * 1000 : value);
  if (Number.isNaN(d.getTime())) return String(value);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A gap between two ratios in percentage points, signed, three decimals (0.0005 → "+0.050"). */
export function formatPoints(gap: number): string {
  const v = Number.isFinite(gap) ? gap * 100 : 0;
  return `${v < 0 ? "−" : "+"}${Math.abs(v).toFixed(3)}`;
}

/** An amount in the coin's base unit (10^-8) as coins with all eight decimals, exactly (no float division). */
export function formatCoins(units: number, coin: string): string {
  const whole = Math.floor(units / 1e8);
  const fraction = String(units - whole * 1e8).padStart(8, "0");
  return `${whole}.${fraction} ${coin}`;
}

/**
 * Coins typed by the operator ("1.5", "0.001") as base units, exactly: the digits are read as an
 * integer, never multiplied in doubles (0.29 × 10^8 is 28999999.999999996). null for anything that is
 * not a plain amount with at most eight decimals, or past 2^53 − 1 units (where doubles stop being exact).
 */
export function parseCoins(text: string): number | null {
  const m = /^(\d{1,8})(?:[.,](\d{0,8}))?$/.exec(text.trim());
  if (m === null) return null;
  const units = Number(m[1]) * 1e8 + Number((m[2] ?? "").padEnd(8, "0"));
  return units <= Number.MAX_SAFE_INTEGER ? units : null;
}
