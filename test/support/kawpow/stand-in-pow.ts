/**
 * TEST-ONLY STAND-IN FOR KAWPOW. Computing KawPow (ProgPoW over a multi-gigabyte DAG) in a test costs
 * far too much, so the KawPow test pool and miner agree on this cheap verifiable rule instead, and
 * the tests that rely on it say "structure only" in their names:
 *
 *   mix   = sha3-256(headerHash ‖ nonce)          (nonce: the 8 bytes as submitted, big-endian hex)
 *   final = sha3-256(mix ‖ headerHash)
 *   a share is valid when final, read as a big-endian 256-bit integer, is ≤ the job's share target.
 *
 * The miner must really search nonces for it (so a test difficulty can reject), and a share whose
 * mix hash, header or nonce was altered on the way fails it. It replaces ProgPoW in the tests only:
 * the proxy computes neither (it never hashes shares; the pool's verdict is the truth).
 * sha3 comes from @noble/hashes, not from anything in the engine.
 */
import { sha3_256 } from "@noble/hashes/sha3.js";

const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export interface StandInResult {
  /** 64 hex digits, submitted as the mix hash */
  mix: string;
  /** the stand-in "final hash" as an integer, compared with the share target */
  final: bigint;
}

/** `header`: 64 hex digits; `nonce`: 16 hex digits. */
export function standInHash(header: string, nonce: string): StandInResult {
  const h = fromHex(header);
  const mix = sha3_256(new Uint8Array([...h, ...fromHex(nonce)]));
  const final = sha3_256(new Uint8Array([...mix, ...h]));
  return { mix: toHex(mix), final: BigInt(`0x${toHex(final)}`) };
}
