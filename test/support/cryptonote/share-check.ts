/**
 * How the CryptoNote test pool judges a share's proof of work. Rejections are data — a closed set of
 * reasons with one message each, in the style real RandomX pools use — so that tests can count them.
 */
import { withNonce } from "./hashing-blob.ts";
import type { RandomXLight } from "./randomx.ts";
import { meetsTarget } from "./target.ts";

export type RejectReason =
  | "unauthenticated"
  | "malformed"
  | "unknown-job"
  | "stale-job"
  | "duplicate"
  | "invalid-result"
  | "low-difficulty";

export const REJECT_MESSAGES: Record<RejectReason, string> = {
  unauthenticated: "Unauthenticated",
  malformed: "Malformed share",
  "unknown-job": "Invalid job id",
  "stale-job": "Block expired",
  duplicate: "Duplicate share",
  "invalid-result": "Invalid share",
  "low-difficulty": "Low difficulty share",
};

/** Every share error carries code -1, as xmrig-proxy and most CryptoNote pools send it. */
export const SHARE_ERROR_CODE = -1;

export interface ShareWork {
  blob: Uint8Array;
  seedHash: Uint8Array;
  target64: bigint;
}

/**
 * Recomputes RandomX over the blob with the nonce in place and compares it with the hash the miner
 * claims, then judges the computed hash against the target. Without a hasher (a pool told to trust
 * shares, for benchmarks of the proxy rather than the pool) only the claimed hash is judged.
 */
export function checkProofOfWork(
  work: ShareWork,
  nonce: number,
  claimed: Uint8Array,
  hasher: RandomXLight | null,
): RejectReason | null {
  let hash = claimed;
  if (hasher !== null) {
    hash = hasher.hash(work.seedHash, withNonce(work.blob, nonce));
    if (Buffer.compare(hash, claimed) !== 0) return "invalid-result";
  }
  return meetsTarget(hash, work.target64) ? null : "low-difficulty";
}
