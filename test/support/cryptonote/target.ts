/**
 * CryptoNote share targets as xmrig reads them (protocols.md §C), written here independently of the
 * engine so that the test pool and test miner judge shares by their own arithmetic:
 * - a 4-byte hex target is a little-endian u32 t, widened to 0xFFFFFFFFFFFFFFFF / (0xFFFFFFFF / t)
 *   with integer division, exactly as xmrig's Job::setTarget does;
 * - an 8-byte hex target is the little-endian u64 itself;
 * - a hash meets the target when the little-endian u64 at hash bytes 24..31 is below it;
 * - difficulty = 2^64 / target64.
 */

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U32_MAX = 0xffff_ffffn;
const TWO_64 = 1n << 64n;

export type TargetWidth = 4 | 8;

/** The 64-bit target a hex target stands for, or null when it is neither 8 nor 16 hex digits. */
export function parseTarget(hex: string): bigint | null {
  if (!/^[0-9a-fA-F]+$/.test(hex)) return null;
  const raw = Buffer.from(hex, "hex");
  if (raw.length === 4) {
    const t = BigInt(raw.readUInt32LE(0));
    if (t === 0n) return null;
    return U64_MAX / (U32_MAX / t);
  }
  if (raw.length === 8) {
    const t = raw.readBigUInt64LE(0);
    return t === 0n ? null : t;
  }
  return null;
}

/** The hex target a pool sends for a difficulty, in xmrig's 4-byte or the full 8-byte form. */
export function targetHexForDifficulty(difficulty: number, width: TargetWidth): string {
  if (!(difficulty > 0) || !Number.isFinite(difficulty)) throw new RangeError(`bad difficulty ${difficulty}`);
  const out = Buffer.alloc(width);
  if (width === 4) {
    const t = clamp(divide(U32_MAX, difficulty), 1n, U32_MAX);
    out.writeUInt32LE(Number(t), 0);
  } else {
    out.writeBigUInt64LE(clamp(divide(TWO_64, difficulty), 1n, U64_MAX), 0);
  }
  return out.toString("hex");
}

/** 2^64 / target64: the work one share at this target stands for. */
export function difficultyOfTarget(target64: bigint): number {
  return Number(TWO_64) / Number(target64);
}

/** The value a share is judged by: the little-endian u64 at hash bytes 24..31. */
export function hashValue(hash: Uint8Array): bigint {
  if (hash.length !== 32) throw new RangeError("a RandomX hash has 32 bytes");
  return Buffer.from(hash.buffer, hash.byteOffset, hash.length).readBigUInt64LE(24);
}

export const meetsTarget = (hash: Uint8Array, target64: bigint): boolean => hashValue(hash) < target64;

/** floor(numerator / difficulty), exact for integer difficulties. */
function divide(numerator: bigint, difficulty: number): bigint {
  if (Number.isInteger(difficulty)) return numerator / BigInt(difficulty);
  return BigInt(Math.floor(Number(numerator) / difficulty));
}

const clamp = (v: bigint, lo: bigint, hi: bigint): bigint => (v < lo ? lo : v > hi ? hi : v);
