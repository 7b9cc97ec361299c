/**
 * Difficulty and target arithmetic (protocols.md §A): diff-1 targets per algorithm and conversions
 * between a hash and the difficulty it meets. Work per difficulty is the catalogue's hash factor.
 */

const MAX_TARGET = (1n << 256n) - 1n;
const SHA256_DIFF1 = 0xffffn << 208n;
/** Scrypt pools divide stratum difficulty by 65536 before making the target. */
const SCRYPT_DIFF1 = 0xffffn << 224n;

/** Categories whose Bitcoin-style share hash we can verify here. */
export type PowAlgorithm = "sha256d" | "scrypt";

export function diff1Target(category: string): bigint {
  return category === "scrypt" ? SCRYPT_DIFF1 : SHA256_DIFF1;
}

const SCALE = 2n ** 64n;

/** Target for a (possibly fractional) difficulty; difficulty ≤ 0 yields the maximum target. */
export function targetForDifficulty(difficulty: number, category: string): bigint {
  if (!(difficulty > 0)) return MAX_TARGET;
  const scaled = BigInt(Math.max(1, Math.round(difficulty * 2 ** 64)));
  const t = (diff1Target(category) * SCALE) / scaled;
  return t > MAX_TARGET ? MAX_TARGET : t;
}

/** Difficulty a hash value meets (diff1 / hash). */
export function difficultyOfHash(hash: bigint, category: string): number {
  if (hash === 0n) return Number.POSITIVE_INFINITY;
  const q = (diff1Target(category) * SCALE) / hash;
  return Number(q) / 2 ** 64;
}

/** Reads bytes as a little-endian unsigned integer (how Bitcoin compares a header hash with a target). */
export function leToBigInt(bytes: Uint8Array): bigint {
  let hex = "";
  for (let i = bytes.length - 1; i >= 0; i--) hex += (bytes[i] as number).toString(16).padStart(2, "0");
  return hex.length === 0 ? 0n : BigInt(`0x${hex}`);
}
