/**
 * Share difficulty and the unit of credited work.
 *
 * Work is counted in "diff-1 shares" as NiceHash counts it: difficulty 1 ≈ 2^32 hashes, hashrate = Σd·2^32/s.
 * - EthereumStratum/1.0.0 sends a difficulty d; the share target is 0x00000000ffff0000…/d (ethminer's
 *   getTargetFromDiff). An accepted share is credited d.
 * - ETHPROXY sends a 256-bit boundary; a share is expected every 2^256/boundary hashes, so it is credited
 *   2^256/boundary/2^32 = 2^224/boundary.
 * The test pool derives its ETHPROXY boundary from the same difficulty as 2^224/d, so one difficulty is
 * credited ≈ d in both dialects; the NiceHash target is 0xffff/0x10000 of that boundary (0.0015 % harder).
 */

/** The largest 256-bit value: every hash meets it. */
export const MAX_TARGET = (1n << 256n) - 1n;

/** NiceHash's difficulty-1 target, 0x00000000ffff0000…0000. */
export const NICEHASH_DIFF1_TARGET = 0xffffn << 208n;

/** d as an exact fraction num/den (a double is a binary fraction, so doubling until integral is exact). */
function exactFraction(d: number): { num: bigint; den: bigint } {
  if (!Number.isFinite(d) || d <= 0) throw new Error(`difficulty must be a positive number, got ${d}`);
  let scaled = d;
  let shift = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    shift++;
  }
  return { num: BigInt(scaled), den: 1n << shift };
}

const capped = (t: bigint): bigint => (t > MAX_TARGET ? MAX_TARGET : t);

/** The EthereumStratum/1.0.0 share target for difficulty d. */
export function nicehashTarget(d: number): bigint {
  const { num, den } = exactFraction(d);
  return capped((NICEHASH_DIFF1_TARGET * den) / num);
}

/** The ETHPROXY boundary the test pool sends for difficulty d: 2^224/d. */
export function boundaryForDifficulty(d: number): bigint {
  const { num, den } = exactFraction(d);
  return capped(((1n << 224n) * den) / num);
}

/** Credited work of one share under an ETHPROXY boundary, in diff-1 shares. */
export const workOfBoundary = (boundary: bigint): number => 2 ** 224 / Number(boundary);
