/**
 * Work units for KawPow. The catalogue has no hash factor for kawpow (pools disagree on what one
 * unit of difficulty is), so the engine counts work in difficulty units of RVN pools'
 * diff-1 target 0x00000000ff000000…0 (kawpow-stratum-pool, protocols.md §G): a share target t is
 * worth diff1 / t. Main and fee pools are measured in the same unit, so the fee ratio (a ratio of
 * work on one port) holds whatever a pool calls its difficulty.
 */
import { remembered } from "../intern.ts";

const DIFF1 = Number(0xffn << 216n);

function readTarget(targetHex: string): number {
  const t = Number(BigInt(`0x${targetHex}`));
  return t > 0 ? DIFF1 / t : 0;
}

/**
 * Difficulty (units of the 0x00000000ff00… target) of a 32-byte share target given as 64 hex digits;
 * remembered, as a pool repeats its targets to every session on every job.
 */
export const difficultyOfTarget = remembered(readTarget);
