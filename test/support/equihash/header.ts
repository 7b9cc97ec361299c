/**
 * The Equihash block header as test pools and miners build it from ZIP 301 fields, which are hex of
 * the header bytes in block order (no byte swapping): version(4) ‖ prevhash(32) ‖ merkleroot(32) ‖
 * reserved(32) ‖ time(4) ‖ bits(4) ‖ NONCE_1 ‖ NONCE_2 (32 together) = 140 bytes, the input of
 * Equihash; the block hash is sha256d over those 140 bytes ‖ the solution with its compactSize
 * length, read as a little-endian number and compared with the target.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, hexToBytes } from "@noble/hashes/utils.js";

export interface HeaderFields {
  version: string;
  prevHash: string;
  merkleRoot: string;
  reserved: string;
  time: string;
  bits: string;
}

export function headerBytes(f: HeaderFields, nonce1: string, nonce2: string): Uint8Array {
  const out = hexToBytes(
    f.version + f.prevHash + f.merkleRoot + f.reserved + f.time + f.bits + nonce1 + nonce2,
  );
  if (out.length !== 140) throw new Error(`header is ${out.length} bytes, not 140`);
  return out;
}

/** The block hash as a number (sha256d read little-endian), what a target bounds. */
export function hashValue(header: Uint8Array, solutionWithLength: Uint8Array): bigint {
  const h = sha256(sha256(concatBytes(header, solutionWithLength)));
  let v = 0n;
  for (let i = h.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(h[i] as number);
  return v;
}

/** Little-endian hex of a number, `bytes` long (header fields of the reference block). */
export function leHex(v: bigint | number, bytes: number): string {
  let x = BigInt(v);
  let s = "";
  for (let i = 0; i < bytes; i++) {
    s += (x & 0xffn).toString(16).padStart(2, "0");
    x >>= 8n;
  }
  return s;
}
