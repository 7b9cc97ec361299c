/**
 * A sealed (pre-London) Ethereum block header taken apart: the block hash is keccak256 of the whole RLP, the
 * seal hash that ethash hashes is keccak256 of the RLP of the first 13 fields (everything but mixHash and
 * nonce), and the boundary a valid seal meets is 2^256/difficulty.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToBigInt } from "./hex.ts";
import { type RlpItem, rlpDecode, rlpEncode } from "./rlp.ts";

export interface SealedHeader {
  blockHash: Uint8Array;
  sealHash: Uint8Array;
  parentHash: Uint8Array;
  number: number;
  difficulty: bigint;
  mixHash: Uint8Array;
  nonce: bigint;
}

/** Fields of a Frontier…Berlin header; London added baseFee and would need a different seal field count. */
const FIELDS = 15;
const PARENT = 0;
const DIFFICULTY = 7;
const NUMBER = 8;
const MIX = 13;
const NONCE = 14;

export function parseSealedHeader(rlp: Uint8Array): SealedHeader {
  const fields = rlpDecode(rlp);
  if (!Array.isArray(fields) || fields.length !== FIELDS) throw new Error("not a 15-field sealed header");
  const bytes = (i: number): Uint8Array => {
    const f: RlpItem = fields[i];
    if (!(f instanceof Uint8Array)) throw new Error(`header field ${i} is a list`);
    return f;
  };
  return {
    blockHash: keccak_256(rlp),
    sealHash: keccak_256(rlpEncode(fields.slice(0, MIX))),
    parentHash: bytes(PARENT),
    number: Number(bytesToBigInt(bytes(NUMBER))),
    difficulty: bytesToBigInt(bytes(DIFFICULTY)),
    mixHash: bytes(MIX),
    nonce: bytesToBigInt(bytes(NONCE)),
  };
}
