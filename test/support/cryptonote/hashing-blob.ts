/**
 * Monero-style hashing blobs, the `blob` of a CryptoNote job: the block header (major and minor
 * version varints, timestamp varint, 32-byte previous block id, 4-byte nonce), the 32-byte merkle root
 * of the block's transactions and the transaction count varint. With one-byte versions and a present-
 * day timestamp (a five-byte varint) the nonce sits at byte 39 and the blob is 76 bytes, which is what
 * xmrig and every RandomX pool assume.
 */
import { randomBytes } from "node:crypto";
import { decodeVarint, encodeVarint } from "./varint.ts";

export const NONCE_OFFSET = 39;
export const NONCE_BYTES = 4;
/**
 * The nonce's most significant byte. xmrig keeps it when the pool advertises the "nicehash"
 * extension, so that a proxy can give each miner its own value and split one job among miners.
 */
export const NICEHASH_BYTE = NONCE_OFFSET + 3;

export interface HashingBlobFields {
  majorVersion: number;
  minorVersion: number;
  /** unix seconds */
  timestamp: number;
  prevId: Uint8Array;
  nonce: number;
  merkleRoot: Uint8Array;
  /** transactions in the block, the miner transaction included */
  txCount: number;
}

export function buildHashingBlob(f: HashingBlobFields): Uint8Array {
  if (f.prevId.length !== 32 || f.merkleRoot.length !== 32) throw new RangeError("ids are 32 bytes");
  const nonce = Buffer.alloc(NONCE_BYTES);
  nonce.writeUInt32LE(f.nonce >>> 0, 0);
  return Buffer.concat([
    encodeVarint(f.majorVersion),
    encodeVarint(f.minorVersion),
    encodeVarint(f.timestamp),
    f.prevId,
    nonce,
    f.merkleRoot,
    encodeVarint(f.txCount),
  ]);
}

/** Where the nonce starts, found by walking the header's three varints. */
export function nonceOffsetOf(blob: Uint8Array): number | null {
  let at = 0;
  for (let i = 0; i < 3; i++) {
    const v = decodeVarint(blob, at);
    if (v === null) return null;
    at = v.next;
  }
  at += 32;
  return at + NONCE_BYTES <= blob.length ? at : null;
}

/** A realistic blob for a test job: Monero v16 header, the given previous id, a fresh merkle root. */
export function testHashingBlob(prevId: Uint8Array, timestamp = Math.floor(Date.now() / 1000)): Uint8Array {
  const blob = buildHashingBlob({
    majorVersion: 16,
    minorVersion: 16,
    timestamp,
    prevId,
    nonce: 0,
    merkleRoot: randomBytes(32),
    // A block with the miner transaction and a few others: any one-byte count keeps the 76-byte layout.
    txCount: 1 + ((randomBytes(1)[0] ?? 0) % 100),
  });
  if (nonceOffsetOf(blob) !== NONCE_OFFSET) throw new Error("test blob layout drifted from nonce offset 39");
  return blob;
}

/** A copy of the blob with the 4-byte little-endian nonce written at byte 39. */
export function withNonce(blob: Uint8Array, nonce: number): Uint8Array {
  const out = Buffer.from(blob);
  out.writeUInt32LE(nonce >>> 0, NONCE_OFFSET);
  return out;
}

export const readNonce = (blob: Uint8Array): number =>
  Buffer.from(blob.buffer, blob.byteOffset, blob.length).readUInt32LE(NONCE_OFFSET);

/** The submit field: the nonce as its four little-endian bytes in hex, as xmrig sends it. */
export function nonceHex(nonce: number): string {
  const b = Buffer.alloc(NONCE_BYTES);
  b.writeUInt32LE(nonce >>> 0, 0);
  return b.toString("hex");
}

/** The nonce a submit's 8 hex digits stand for, or null when malformed. */
export function parseNonceHex(hex: string): number | null {
  if (!/^[0-9a-fA-F]{8}$/.test(hex)) return null;
  return Buffer.from(hex, "hex").readUInt32LE(0);
}
