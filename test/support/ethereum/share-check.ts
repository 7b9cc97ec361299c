/**
 * The pool's verdict on one share, recomputed from header hash and nonce alone with the independent ethash
 * library: a submitted mix digest (ETHPROXY) must equal the recomputed one, and the result must not exceed the
 * share target. EthereumStratum/1.0.0 submits no mix, so only the target check can catch a wrong nonce there.
 */
import type { LightCache } from "./ethash.ts";
import { bytesToBigInt } from "./hex.ts";

export type ShareVerdict = "ok" | "bad-mix" | "low-difficulty";

export function checkShare(
  cache: LightCache,
  headerHash: Uint8Array,
  nonce: bigint,
  target: bigint,
  submittedMix: Uint8Array | null,
): ShareVerdict {
  const { mixDigest, result } = cache.hashimoto(headerHash, nonce);
  if (submittedMix !== null && !Buffer.from(submittedMix).equals(Buffer.from(mixDigest))) return "bad-mix";
  return bytesToBigInt(result) <= target ? "ok" : "low-difficulty";
}
