/**
 * kHeavyHash written from the published algorithm (Kaspa's consensus/pow), for the test pool and
 * miner; it shares nothing with the engine, which never hashes. Pinned by rusty-kaspa's own vectors
 * (reference-vectors.ts).
 *
 *   pow = cSHAKE256("ProofOfWorkHash")(prePowHash ‖ timestamp LE u64 ‖ 32 zero bytes ‖ nonce LE u64)
 *   matrix = 64×64 nibbles drawn from xoshiro256++ seeded with prePowHash, redrawn until rank 64
 *   product[i] = ((M[2i]·v >> 10) << 4 | (M[2i+1]·v >> 10)) ^ pow[i], v = pow's 64 nibbles, high first
 *   result = cSHAKE256("HeavyHash")(product), read as a little-endian 256-bit integer ≤ target
 *
 * Pyrin's heavy hash (the catalogue's blake3s, Pyrinpyi/pyrin consensus/pow) is the same matrix
 * step with BLAKE3 in both hash places; since its relaunch each product nibble is the xor of the
 * dot product's three low nibbles instead of its bits 10–13. Pyrin's own vectors pin BLAKE3 in both
 * places and the matrix step with the first rule; the relaunch rule has no published vector.
 */
import { blake3 } from "@noble/hashes/blake3.js";
import { cshake256 } from "@noble/hashes/sha3-addons.js";

const POW_DOMAIN = new TextEncoder().encode("ProofOfWorkHash");
const HEAVY_DOMAIN = new TextEncoder().encode("HeavyHash");
const MASK64 = (1n << 64n) - 1n;

const rotl64 = (x: bigint, k: bigint): bigint => ((x << k) | (x >> (64n - k))) & MASK64;

/** xoshiro256++ seeded with the hash's four little-endian u64 words. */
export class Xoshiro256pp {
  private s: bigint[];

  constructor(seed: Uint8Array) {
    const v = new DataView(seed.buffer, seed.byteOffset, 32);
    this.s = [0, 1, 2, 3].map((i) => v.getBigUint64(i * 8, true));
  }

  next(): bigint {
    const s = this.s as [bigint, bigint, bigint, bigint];
    const result = (rotl64((s[0] + s[3]) & MASK64, 23n) + s[0]) & MASK64;
    const t = (s[1] << 17n) & MASK64;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45n);
    return result;
  }
}

/** Rank by Gaussian elimination over doubles with kaspad's epsilon (1e-9). */
export function rankOf(matrix: readonly (readonly number[])[]): number {
  const m = matrix.map((row) => Float64Array.from(row));
  const selected = new Array<boolean>(64).fill(false);
  let rank = 0;
  for (let i = 0; i < 64; i++) {
    let j = 0;
    while (j < 64 && (selected[j] || Math.abs((m[j] as Float64Array)[i] as number) <= 1e-9)) j++;
    if (j === 64) continue;
    rank++;
    selected[j] = true;
    const rj = m[j] as Float64Array;
    for (let p = i + 1; p < 64; p++) rj[p] = (rj[p] as number) / (rj[i] as number);
    for (let k = 0; k < 64; k++) {
      const rk = m[k] as Float64Array;
      if (k === j || Math.abs(rk[i] as number) <= 1e-9) continue;
      for (let p = i + 1; p < 64; p++) rk[p] = (rk[p] as number) - (rj[p] as number) * (rk[i] as number);
    }
  }
  return rank;
}

/** The job's matrix: rows of 64 nibbles, 16 per u64 from the low nibble up, until full rank. */
export function generateMatrix(prePow: Uint8Array): number[][] {
  const rng = new Xoshiro256pp(prePow);
  for (;;) {
    const rows: number[][] = [];
    for (let i = 0; i < 64; i++) {
      const row: number[] = [];
      for (let j = 0; j < 64; j += 16) {
        const v = rng.next();
        for (let shift = 0n; shift < 16n; shift++) row.push(Number((v >> (4n * shift)) & 0xfn));
      }
      rows.push(row);
    }
    if (rankOf(rows) === 64) return rows;
  }
}

/** The hash places and the product rule that tell the heavy-hash coins apart. */
export interface HeavyHashAlgorithm {
  /** over prePowHash ‖ timestamp LE u64 ‖ 32 zero bytes ‖ nonce LE u64 (80 bytes) */
  powHash(input: Uint8Array): Uint8Array;
  /** the 4 bits a row's dot product contributes to the product */
  nibble(dot: number): number;
  finalHash(product: Uint8Array): Uint8Array;
}

export const KASPA: HeavyHashAlgorithm = {
  powHash: (input) => cshake256(input, { personalization: POW_DOMAIN, dkLen: 32 }),
  nibble: (dot) => dot >> 10,
  finalHash: (product) => cshake256(product, { personalization: HEAVY_DOMAIN, dkLen: 32 }),
};

/** Pyrin before its relaunch: the rule its published vectors were computed with. */
export const PYRIN_BEFORE_RELAUNCH: HeavyHashAlgorithm = {
  powHash: (input) => blake3(input, { dkLen: 32 }),
  nibble: (dot) => dot >> 10,
  finalHash: (product) => blake3(product, { dkLen: 32 }),
};

/** Pyrin as mined today. */
export const PYRIN: HeavyHashAlgorithm = {
  ...PYRIN_BEFORE_RELAUNCH,
  nibble: (dot) => (dot ^ (dot >> 4) ^ (dot >> 8)) & 0x0f,
};

/** The matrix step and the final hash (cSHAKE256("HeavyHash") for Kaspa). */
export function heavyHash(
  matrix: readonly (readonly number[])[],
  hash: Uint8Array,
  algorithm: HeavyHashAlgorithm = KASPA,
): Uint8Array {
  const vec = new Uint8Array(64);
  for (let i = 0; i < 32; i++) {
    vec[2 * i] = (hash[i] as number) >> 4;
    vec[2 * i + 1] = (hash[i] as number) & 0x0f;
  }
  const product = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const r1 = matrix[2 * i] as readonly number[];
    const r2 = matrix[2 * i + 1] as readonly number[];
    let sum1 = 0;
    let sum2 = 0;
    for (let j = 0; j < 64; j++) {
      sum1 += (r1[j] as number) * (vec[j] as number);
      sum2 += (r2[j] as number) * (vec[j] as number);
    }
    product[i] = ((algorithm.nibble(sum1) << 4) | algorithm.nibble(sum2)) ^ (hash[i] as number);
  }
  return algorithm.finalHash(product);
}

/** The PoW hash (cSHAKE256("ProofOfWorkHash") for Kaspa) over prePowHash ‖ timestamp ‖ 32 zero bytes ‖ nonce. */
export function powHash(
  prePow: Uint8Array,
  timestamp: bigint,
  nonce: bigint,
  algorithm: HeavyHashAlgorithm = KASPA,
): Uint8Array {
  const input = new Uint8Array(80);
  input.set(prePow, 0);
  const v = new DataView(input.buffer);
  v.setBigUint64(32, timestamp, true);
  v.setBigUint64(72, nonce, true);
  return algorithm.powHash(input);
}

/** A job's hashing state: the matrix is drawn once per pre-PoW hash. */
export class KHeavyHasher {
  readonly matrix: number[][];

  constructor(
    readonly prePow: Uint8Array,
    readonly timestamp: bigint,
    readonly algorithm: HeavyHashAlgorithm = KASPA,
  ) {
    this.matrix = generateMatrix(prePow);
  }

  /** The PoW value as the consensus compares it: the result read little-endian. */
  pow(nonce: bigint): bigint {
    const a = this.algorithm;
    const out = heavyHash(this.matrix, powHash(this.prePow, this.timestamp, nonce, a), a);
    let v = 0n;
    for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(out[i] as number);
    return v;
  }
}

/** Share target of a stratum difficulty: diff-1 is 2^224 − 1 (protocols.md §D; Σd · 2^32 hashes). */
export function targetOfDifficulty(d: number): bigint {
  const SCALE = 2 ** 40;
  return (((1n << 224n) - 1n) * BigInt(Math.round(SCALE / d))) >> 40n;
}
