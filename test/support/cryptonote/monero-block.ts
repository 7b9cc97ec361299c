/**
 * Just enough of Monero's block format to turn a full block blob (from `get_block` or
 * `get_block_template`) into its hashing blob and block id, so that the RandomX binding can be pinned
 * to blocks of the real chain rather than only to the library's own test strings.
 *
 * - hashing blob = header ‖ tree_hash(miner tx hash, tx hashes…) ‖ varint(1 + number of tx hashes)
 * - block id = keccak256(varint(hashing blob length) ‖ hashing blob)
 * - a v2 transaction's hash = keccak256(keccak256(prefix) ‖ keccak256(RingCT base) ‖ prunable hash),
 *   where a miner transaction's RingCT base is the single type byte 0 and its prunable hash is zero.
 * Monero's "fast hash" is the original Keccak-256 (not SHA3-256); @noble/hashes provides it.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { decodeVarint, encodeVarint } from "./varint.ts";

export interface ParsedBlock {
  /** header bytes through the nonce */
  header: Uint8Array;
  minerTx: Uint8Array;
  /** length of the miner transaction's prefix (everything before its RingCT part) */
  minerTxPrefixLength: number;
  txHashes: Uint8Array[];
}

const TXIN_GEN = 0xff;
const TXOUT_TO_KEY = 0x02;
const TXOUT_TO_TAGGED_KEY = 0x03;
const RCT_TYPE_NULL = 0;

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(): bigint {
    const v = decodeVarint(this.bytes, this.at);
    if (v === null) throw new Error(`bad varint at ${this.at}`);
    this.at = v.next;
    return v.value;
  }

  count(): number {
    const n = this.varint();
    if (n > BigInt(this.bytes.length)) throw new Error(`implausible count ${n} at ${this.at}`);
    return Number(n);
  }

  take(n: number): Uint8Array {
    if (this.at + n > this.bytes.length) throw new Error(`blob ends inside a ${n}-byte field`);
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  byte(): number {
    return this.take(1)[0] as number;
  }
}

export function parseBlock(blob: Uint8Array): ParsedBlock {
  const r = new Reader(blob);
  r.varint(); // major version
  r.varint(); // minor version
  r.varint(); // timestamp
  r.take(32 + 4); // previous id, nonce
  const header = blob.subarray(0, r.at);

  const txStart = r.at;
  const version = r.varint();
  r.varint(); // unlock time
  const inputs = r.count();
  for (let i = 0; i < inputs; i++) {
    const tag = r.byte();
    if (tag !== TXIN_GEN) throw new Error(`miner tx input of type ${tag}`);
    r.varint(); // height
  }
  const outputs = r.count();
  for (let i = 0; i < outputs; i++) {
    r.varint(); // amount
    const tag = r.byte();
    if (tag === TXOUT_TO_KEY) r.take(32);
    else if (tag === TXOUT_TO_TAGGED_KEY) r.take(33);
    else throw new Error(`miner tx output of type ${tag}`);
  }
  r.take(r.count()); // extra
  const prefixEnd = r.at;
  if (version >= 2n) {
    const rctType = r.byte();
    if (rctType !== RCT_TYPE_NULL) throw new Error(`miner tx with RingCT type ${rctType}`);
  }
  const minerTx = blob.subarray(txStart, r.at);

  const txHashes: Uint8Array[] = [];
  const n = r.count();
  for (let i = 0; i < n; i++) txHashes.push(r.take(32));
  if (r.at !== blob.length) throw new Error(`${blob.length - r.at} bytes after the block`);
  return { header, minerTx, minerTxPrefixLength: prefixEnd - txStart, txHashes };
}

export function minerTxHash(block: ParsedBlock): Uint8Array {
  const { minerTx, minerTxPrefixLength } = block;
  if (minerTx.length === minerTxPrefixLength) return keccak_256(minerTx); // version 1: the whole blob
  return keccak_256(
    concat([
      keccak_256(minerTx.subarray(0, minerTxPrefixLength)),
      keccak_256(minerTx.subarray(minerTxPrefixLength)),
      new Uint8Array(32),
    ]),
  );
}

/** Monero's tree_hash (src/crypto/tree-hash.c), the fixed version after block 202612. */
export function treeHash(hashes: Uint8Array[]): Uint8Array {
  const count = hashes.length;
  if (count === 0) throw new Error("tree hash of nothing");
  if (count === 1) return hashes[0] as Uint8Array;
  if (count === 2) return keccak_256(concat(hashes));
  // The largest power of two below count: the leaves beyond it are paired first.
  let cnt = 1;
  while (cnt * 2 < count) cnt *= 2;
  const level: Uint8Array[] = hashes.slice(0, 2 * cnt - count);
  for (let i = 2 * cnt - count; i < count; i += 2)
    level.push(keccak_256(concat([hashes[i] as Uint8Array, hashes[i + 1] as Uint8Array])));
  let nodes = level;
  while (nodes.length > 2) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < nodes.length; i += 2)
      next.push(keccak_256(concat([nodes[i] as Uint8Array, nodes[i + 1] as Uint8Array])));
    nodes = next;
  }
  return keccak_256(concat(nodes));
}

export function hashingBlobOf(blob: Uint8Array): Uint8Array {
  const block = parseBlock(blob);
  const root = treeHash([minerTxHash(block), ...block.txHashes]);
  return concat([block.header, root, encodeVarint(1 + block.txHashes.length)]);
}

export function blockIdOf(blob: Uint8Array): Uint8Array {
  const hashing = hashingBlobOf(blob);
  return keccak_256(concat([encodeVarint(hashing.length), hashing]));
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
