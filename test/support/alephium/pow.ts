/**
 * Alephium proof of work, written from the reference pool's description (alephium/mining-pool
 * lib/blockTemplate.js, lib/util.js, lib/jobManager.js) on @noble/hashes' blake3, independent of the
 * proxy: hash = blake3(blake3(nonce ‖ headerBlob)), read big-endian; the block's chain is its hash's
 * last two bytes as a big-endian u16, mod 16, split into fromGroup = i / 4 and toGroup = i % 4.
 */
import { blake3 } from "@noble/hashes/blake3.js";

export const NONCE_BYTES = 24;
export const GROUPS = 4;
/** The reference pool's diff-1 target: 2^(256 − diff1TargetNumZero) − 1 with 30 zero bits (lib/config.json). */
export const DIFF1_TARGET = 2n ** 226n - 1n;
/** Hashes one unit of difficulty takes: 2^30 for the target, 16 for landing on the job's chain (lib/stats.js). */
export const HASHES_PER_DIFFICULTY = 2 ** 34;

export function powHash(nonce: Uint8Array, header: Uint8Array): Uint8Array {
  const input = new Uint8Array(nonce.length + header.length);
  input.set(nonce, 0);
  input.set(header, nonce.length);
  return blake3(blake3(input));
}

export function chainOf(hash: Uint8Array): { fromGroup: number; toGroup: number } {
  const index = (((hash[30] as number) << 8) | (hash[31] as number)) % (GROUPS * GROUPS);
  return { fromGroup: Math.floor(index / GROUPS), toGroup: index % GROUPS };
}

export function hashValue(hash: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(hash).toString("hex")}`);
}

/**
 * The share target of a difficulty. The reference pool computes diff1·1024 / ⌈d·1024⌉, which rounds
 * every difficulty below 1/1024 up to 1/1024; tests mine far lower, so the scale here is 2^40.
 */
export function targetOfDifficulty(difficulty: number): bigint {
  const scale = 2 ** 40;
  return (DIFF1_TARGET * BigInt(scale)) / BigInt(Math.ceil(difficulty * scale));
}

export const targetHex = (target: bigint): string => target.toString(16).padStart(64, "0");
export const hexBytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, "hex"));
