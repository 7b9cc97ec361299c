/**
 * Share verification for the Bitcoin-family test pool and test miner, kept apart from the engine's
 * own stratum/bitcoin/pow.ts so that a test's verdict never comes from the code it tests. Written
 * from protocols.md §A ("Verifying a sha256d share"); hashing is @noble/hashes, not node:crypto.
 *
 * Byte order, step by step (the order a real miner uses):
 * 1. coinbase = coinb1 ‖ extranonce1 ‖ extranonce2 ‖ coinb2, hex-decoded.
 * 2. root = sha256d(coinbase); then root = sha256d(root ‖ b) for each branch hash b, as decoded.
 * 3. header = version, ntime, nbits and nonce each reversed (notify sends them big-endian), prevhash
 *    with each of its eight 4-byte words reversed, and the root as computed.
 * 4. the PoW digest read as a little-endian integer must not exceed the target.
 */
import { scrypt } from "@noble/hashes/scrypt.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes } from "@noble/hashes/utils.js";

export type ShareAlgorithm = "sha256d" | "scrypt";

/** Only scrypt coins hash the header differently; every other Bitcoin-style category is sha256d here. */
export const algorithmFor = (category: string): ShareAlgorithm =>
  category === "scrypt" ? "scrypt" : "sha256d";

/** A share as the pool sent its job (notify) and the miner sent it back (submit), all hex. */
export interface ShareFields {
  coinb1: string;
  extranonce1: string;
  extranonce2: string;
  coinb2: string;
  merkleBranch: readonly string[];
  prevHash: string;
  /** 8 hex, already rolled (see rolledVersion) */
  version: string;
  nbits: string;
  ntime: string;
  nonce: string;
}

export function sha256d(bytes: Uint8Array): Uint8Array {
  return sha256(sha256(bytes));
}

export function coinbaseOf(
  f: Pick<ShareFields, "coinb1" | "extranonce1" | "extranonce2" | "coinb2">,
): Uint8Array {
  return hexToBytes(f.coinb1 + f.extranonce1 + f.extranonce2 + f.coinb2);
}

/** The coinbase is always the leftmost leaf, so every branch hash joins on the right. */
export function merkleRootOf(coinbase: Uint8Array, branch: readonly string[]): Uint8Array {
  let node = sha256d(coinbase);
  for (const sibling of branch) node = sha256d(concatBytes(node, hexToBytes(sibling)));
  return node;
}

const reversedBytes = (hex: string): Uint8Array => hexToBytes(hex).reverse();

/** Stratum's prevhash is the header's 32 bytes with each 4-byte word byte-swapped. */
function prevHashBytes(hex: string): Uint8Array {
  const bytes = hexToBytes(hex);
  for (let word = 0; word < 32; word += 4) bytes.subarray(word, word + 4).reverse();
  return bytes;
}

/** The 80-byte block header a share stands for. */
export function headerOf(f: ShareFields): Uint8Array {
  const header = concatBytes(
    reversedBytes(f.version),
    prevHashBytes(f.prevHash),
    merkleRootOf(coinbaseOf(f), f.merkleBranch),
    reversedBytes(f.ntime),
    reversedBytes(f.nbits),
    reversedBytes(f.nonce),
  );
  if (header.length !== 80) throw new Error(`header is ${header.length} bytes, not 80`);
  return header;
}

/** Litecoin's PoW: scrypt with the header as both password and salt, N=1024, r=1, p=1, 32 bytes. */
export function powDigest(header: Uint8Array, algorithm: ShareAlgorithm): Uint8Array {
  return algorithm === "scrypt"
    ? scrypt(header, header, { N: 1024, r: 1, p: 1, dkLen: 32 })
    : sha256d(header);
}

/** A digest as the number Bitcoin compares with the target: the bytes read little-endian. */
export function digestValue(digest: Uint8Array): bigint {
  return BigInt(`0x${bytesToHex(digest.slice().reverse())}`);
}

/** As block explorers print a hash: most significant byte first. */
export const digestHex = (digest: Uint8Array): string => bytesToHex(digest.slice().reverse());

const MAX_TARGET = (1n << 256n) - 1n;

/** Scrypt pools divide stratum difficulty by 65536, so their difficulty 1 is 2^16 times easier. */
export function diffOneTarget(algorithm: ShareAlgorithm): bigint {
  return algorithm === "scrypt" ? 0xffffn << 224n : 0xffffn << 208n;
}

/** A finite positive double as an exact fraction num/den (mantissa and power of two from its bits). */
function exactFraction(value: number): { num: bigint; den: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // normal numbers carry an implicit leading 1; subnormals use the smallest exponent
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075;
  return power >= 0
    ? { num: mantissa << BigInt(power), den: 1n }
    : { num: mantissa, den: 1n << BigInt(-power) };
}

/** target = diff1 / difficulty, exactly (no rounding of the difficulty), capped at 2^256 − 1. */
export function targetFor(difficulty: number, algorithm: ShareAlgorithm): bigint {
  if (!Number.isFinite(difficulty) || difficulty <= 0) throw new Error(`bad difficulty ${difficulty}`);
  const { num, den } = exactFraction(difficulty);
  const target = (diffOneTarget(algorithm) * den) / num;
  return target > MAX_TARGET ? MAX_TARGET : target;
}

/** A block's own target from its compact nBits: mantissa · 256^(exponent − 3). */
export function targetFromBits(nbits: string): bigint {
  const compact = Number.parseInt(nbits, 16);
  const exponent = compact >>> 24;
  const mantissa = BigInt(compact & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** BIP310: the miner may change only the bits inside the negotiated mask. */
export function rolledVersion(jobVersion: string, versionBits: string | null, mask: number): string {
  if (versionBits === null) return jobVersion;
  const job = Number.parseInt(jobVersion, 16);
  const rolled = Number.parseInt(versionBits, 16);
  return (((job & ~mask) | (rolled & mask)) >>> 0).toString(16).padStart(8, "0");
}

export interface ShareVerdict {
  /** the PoW digest as a little-endian integer */
  value: bigint;
  meetsTarget: boolean;
}

export function verifyShare(f: ShareFields, difficulty: number, algorithm: ShareAlgorithm): ShareVerdict {
  const value = digestValue(powDigest(headerOf(f), algorithm));
  return { value, meetsTarget: value <= targetFor(difficulty, algorithm) };
}

/** The target as 32 little-endian bytes, for a byte-wise comparison with a digest. */
function targetBytes(target: bigint): Uint8Array {
  return hexToBytes(target.toString(16).padStart(64, "0")).reverse();
}

/**
 * Hashes one header for many nonces, as a miner does. For sha256d the first 64 header bytes
 * (version, prevhash, most of the root) do not depend on the nonce, so their SHA-256 state is
 * computed once and cloned per nonce; the digest is compared with the target byte by byte from
 * the most significant end, which decides almost every nonce on the first byte.
 */
export class NonceScanner {
  private readonly header: Uint8Array;
  private readonly view: DataView;
  private readonly midstate: ReturnType<typeof sha256.create> | null;
  private readonly scratch = sha256.create();
  private readonly inner = new Uint8Array(32);
  private readonly target: Uint8Array;

  /** `header`: 80 bytes; the nonce field (bytes 76–79) is overwritten by `meets`. */
  constructor(
    header: Uint8Array,
    private readonly algorithm: ShareAlgorithm,
    target: bigint,
  ) {
    this.header = header.slice();
    this.view = new DataView(this.header.buffer);
    this.midstate = algorithm === "sha256d" ? sha256.create().update(this.header.subarray(0, 64)) : null;
    this.target = targetBytes(target);
  }

  /** Whether this nonce (the number whose big-endian hex the miner submits) meets the target. */
  meets(nonce: number): boolean {
    this.view.setUint32(76, nonce, true);
    let digest: Uint8Array;
    if (this.midstate === null) digest = powDigest(this.header, this.algorithm);
    else {
      this.midstate._cloneInto(this.scratch);
      this.scratch.update(this.header.subarray(64));
      this.scratch.digestInto(this.inner);
      digest = sha256(this.inner);
    }
    for (let i = 31; i >= 0; i--) {
      const d = digest[i] as number;
      const t = this.target[i] as number;
      if (d !== t) return d < t;
    }
    return true;
  }
}
