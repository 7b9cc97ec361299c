/**
 * Work units across the two dialects. Work is counted in NiceHash difficulty units, which the
 * catalogue's factor (2^32) turns into hashes:
 * - EthereumStratum/1.0.0 sends a difficulty d directly (diff-1 target 0x00000000ffff0000…).
 * - ETHPROXY sends a 256-bit boundary; a share is found every 2^256/boundary hashes, which is
 *   2^256/boundary/2^32 = 2^224/boundary in the same units.
 * So one ratio of accepted work holds across miners of both dialects on one port.
 */

const TWO_224 = 2 ** 224;

/** Difficulty (NiceHash units) of an ETHPROXY boundary given as 64 hex digits. */
export function difficultyOfBoundary(boundaryHex: string): number {
  const b = Number(BigInt(`0x${boundaryHex}`));
  return b > 0 ? TWO_224 / b : 0;
}
