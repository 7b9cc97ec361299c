/**
 * Targets and credit for the Equihash test pool, written here independently of the engine: Zcash-
 * family pools take the proof-of-work limit 0x0007ffff…ff as difficulty 1, and a share with target
 * t is credited diff1 / t.
 */
export const DIFF1 = (1n << 243n) - 1n;

/** The 32-byte share target of a difficulty in diff-1 units. */
export function targetOfDifficulty(difficulty: number): bigint {
  // scaled by 2^32 so fractional difficulties (tests mine far below 1) keep their precision
  const scaled = BigInt(Math.round(difficulty * 2 ** 32));
  const t = (DIFF1 << 32n) / scaled;
  const max = (1n << 256n) - 1n;
  return t > max ? max : t;
}

export const targetHex = (t: bigint): string => t.toString(16).padStart(64, "0");

export const creditOfTarget = (t: bigint): number => Number(DIFF1) / Number(t);
