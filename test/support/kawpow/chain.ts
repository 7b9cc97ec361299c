/**
 * KawPow chain facts the test pool needs, written here independently of the engine:
 * - the epoch seed: KawPow keeps ethash's seed chain (seed₀ = 32 zero bytes, seedₙ₊₁ = keccak-256(seedₙ))
 *   with 7500-block epochs (protocols.md §G; Ravencoin's src/crypto/ethash);
 * - targets and credit: RVN pools' diff-1 target is 0x00000000ff000000…0 (kawpow-stratum-pool's
 *   algoProperties), and a share with target t is credited diff1 / t.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";

export const EPOCH_LENGTH = 7500;
export const DIFF1 = 0xffn << 216n;

export function seedHashOfEpoch(epoch: number): string {
  let seed = new Uint8Array(32);
  for (let i = 0; i < epoch; i++) seed = keccak_256(seed);
  return Buffer.from(seed).toString("hex");
}

export const seedHashOfHeight = (height: number): string =>
  seedHashOfEpoch(Math.floor(height / EPOCH_LENGTH));

/** The 32-byte share target (64 hex) of a difficulty in diff-1 units. */
export function targetOfDifficulty(difficulty: number): bigint {
  // scaled by 2^32 so fractional difficulties (tests mine at far below 1) keep their precision
  const scaled = BigInt(Math.round(difficulty * 2 ** 32));
  const t = (DIFF1 << 32n) / scaled;
  const max = (1n << 256n) - 1n;
  return t > max ? max : t;
}

export const targetHex = (t: bigint): string => t.toString(16).padStart(64, "0");

/** Credit of one accepted share at target t, in diff-1 units. */
export const creditOfTarget = (t: bigint): number => Number(DIFF1) / Number(t);
