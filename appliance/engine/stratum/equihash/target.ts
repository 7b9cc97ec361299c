/**
 * Work units for Equihash. The catalogue has no hash factor for equihash (pools disagree on
 * diff-1, protocols.md §F), so the engine counts a share by its target: a target t is worth
 * DIFF1 / t, with DIFF1 = 0x0007ffff…ff, Zcash's proof-of-work limit, which Zcash-family pools
 * (node-stratum-pool's equihash branch and its forks) use as difficulty 1. Main and fee pools are
 * measured in the same unit, so the fee ratio (a ratio of work on one port) holds whatever a pool
 * calls its difficulty.
 */
import { remembered } from "../intern.ts";

const DIFF1 = Number((1n << 243n) - 1n);

function readTarget(targetHex: string): number {
  const t = Number(BigInt(`0x${targetHex}`));
  return t > 0 ? DIFF1 / t : 0;
}

/**
 * Difficulty (units of the 0x0007ffff… target) of a 32-byte share target given as 64 hex digits;
 * remembered, as a pool repeats its targets to every session on every job.
 */
export const difficultyOfTarget = remembered(readTarget);
