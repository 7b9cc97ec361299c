/**
 * The coinbase transaction of a pool-node job, split around the extranonce as stratum sends it
 * (coinb1 ‖ extranonce1 ‖ extranonce2 ‖ coinb2). The miner hashes the non-witness form (its txid is
 * the merkle leaf); the block carries the witness form, whose only witness is the 32-byte reserved
 * value the witness commitment was computed with (BIP141: all zeros, as the daemon assumes in
 * default_witness_commitment).
 */
import { bip34Height, le32, le64, pushData, varint } from "./serialize.ts";

export const EXTRANONCE1_BYTES = 4;
export const EXTRANONCE2_BYTES = 4;
const EXTRANONCE_BYTES = EXTRANONCE1_BYTES + EXTRANONCE2_BYTES;

export interface CoinbaseSpec {
  height: number;
  /** the template's coinbasevalue: subsidy plus fees, in base units */
  value: number;
  /** where the reward goes: the pool address's scriptPubKey, hex */
  payoutScript: string;
  /** the template's default_witness_commitment (a whole output script), if any */
  witnessCommitment?: string;
  /** a short text in the scriptSig, naming the pool */
  tag: string;
}

export interface Coinbase {
  coinb1: string;
  coinb2: string;
  /** whether the block must carry the witness form */
  witness: boolean;
}

const NULL_PREVOUT = `${"00".repeat(32)}ffffffff`;
const SEQUENCE = "ffffffff";
const LOCKTIME = "00000000";
const RESERVED_WITNESS = `0120${"00".repeat(32)}`;

export function buildCoinbase(spec: CoinbaseSpec): Coinbase {
  const height = bip34Height(spec.height);
  const tag = pushData(Buffer.from(spec.tag, "utf8").subarray(0, 32).toString("hex"));
  // scriptSig: height, then one push holding both extranonces, then the tag
  const scriptLength = height.length / 2 + 1 + EXTRANONCE_BYTES + tag.length / 2;
  const outputs = [le64(spec.value) + varint(spec.payoutScript.length / 2) + spec.payoutScript];
  if (spec.witnessCommitment !== undefined)
    outputs.push(le64(0) + varint(spec.witnessCommitment.length / 2) + spec.witnessCommitment);
  return {
    coinb1: `${le32(1)}01${NULL_PREVOUT}${varint(scriptLength)}${height}${varint(EXTRANONCE_BYTES)}`,
    coinb2: `${tag}${SEQUENCE}${varint(outputs.length)}${outputs.join("")}${LOCKTIME}`,
    witness: spec.witnessCommitment !== undefined,
  };
}

/** The witness serialization of a coinbase: marker and flag after the version, the reserved value before the locktime. */
export function witnessCoinbase(nonWitnessHex: string): string {
  const version = nonWitnessHex.slice(0, 8);
  const body = nonWitnessHex.slice(8, -8);
  return `${version}0001${body}${RESERVED_WITNESS}${LOCKTIME}`;
}
