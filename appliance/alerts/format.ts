/** Numbers in alert texts: plain units, as a message read on a phone needs them. */

const PREFIXES = ["", "K", "M", "G", "T", "P", "E"];

/** Hashes per second scaled in steps of 1000 with two decimals (spec §9). */
export function formatRate(hs: number): string {
  let v = hs;
  let i = 0;
  while (v >= 1000 && i < PREFIXES.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(2)} ${PREFIXES[i]}H/s`;
}

/** A ratio (0.021) as percent with two decimals ("2.10"). */
export const percent = (ratio: number): string => (ratio * 100).toFixed(2);

export function formatBytes(bytes: number): string {
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < PREFIXES.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${PREFIXES[i]}B`;
}
