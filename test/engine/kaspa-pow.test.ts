/**
 * The test pool's kHeavyHash (test/support/kaspa/kheavyhash.ts) against rusty-kaspa's vectors, so
 * that the pool that judges the proxy's shares is itself judged by the chain's own code's numbers.
 */
import { describe, expect, test } from "bun:test";
import { keccakP } from "@noble/hashes/sha3.js";
import {
  generateMatrix,
  heavyHash,
  PYRIN,
  PYRIN_BEFORE_RELAUNCH,
  powHash,
  rankOf,
} from "../support/kaspa/kheavyhash.ts";
import {
  GENERATE_MATRIX,
  HEAVY_HASH,
  HEAVY_HASH_INITIAL_STATE,
  POW_HASH_INITIAL_STATE,
  PYRIN_HEAVY_HASH_EXPECTED,
  PYRIN_POW_HASH,
} from "../support/kaspa/reference-vectors.ts";

/** kaspad's shortcut: the prefix-absorbed state, the input's u64 words xored in, one Keccak-f. */
function fromInitialState(initial: readonly bigint[], words: Array<[number, bigint]>): Uint8Array {
  const s = [...initial];
  for (const [i, w] of words) s[i] = (s[i] as bigint) ^ w;
  const lanes = new Uint32Array(50);
  s.forEach((w, i) => {
    lanes[2 * i] = Number(w & 0xffffffffn);
    lanes[2 * i + 1] = Number(w >> 32n);
  });
  keccakP(lanes);
  const out = new Uint8Array(32);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) v.setUint32(i * 4, lanes[i] as number, true);
  return out;
}

const words = (bytes: Uint8Array): bigint[] => {
  const v = new DataView(bytes.buffer, bytes.byteOffset, 32);
  return [0, 1, 2, 3].map((i) => v.getBigUint64(i * 8, true));
};

describe("kHeavyHash in the Kaspa test support, against rusty-kaspa", () => {
  test("the matrix drawn from the hash [42; 32] is rusty-kaspa's (xoshiro256++, nibble order, rank check)", () => {
    const m = generateMatrix(new Uint8Array(32).fill(GENERATE_MATRIX.seedByte));
    expect(m).toEqual(GENERATE_MATRIX.matrix);
    expect(rankOf(m)).toBe(64);
    const dependent = m.map((r) => [...r]);
    dependent[0] = [...(dependent[1] as number[])];
    expect(rankOf(dependent)).toBe(63);
  });

  test("the heavy-hash step of rusty-kaspa's test matrix and input gives its expected hash", () => {
    const out = heavyHash(HEAVY_HASH.matrix, Uint8Array.from(HEAVY_HASH.input));
    expect([...out]).toEqual(HEAVY_HASH.expected);
  });

  test("cSHAKE256 with both domains agrees with kaspad's precomputed Keccak states", () => {
    const prePow = new Uint8Array(32).fill(42);
    const timestamp = 5435345234n;
    const nonce = 432432432n;
    const pw = words(prePow);
    const expectedPow = fromInitialState(POW_HASH_INITIAL_STATE, [
      [0, pw[0] as bigint],
      [1, pw[1] as bigint],
      [2, pw[2] as bigint],
      [3, pw[3] as bigint],
      [4, timestamp],
      [9, nonce],
    ]);
    expect([...powHash(prePow, timestamp, nonce)]).toEqual([...expectedPow]);

    // the final hash of the heavy-hash step, fed the rusty-kaspa input directly (identity matrix aside)
    const input = Uint8Array.from(HEAVY_HASH.input);
    const iw = words(input);
    const expectedHeavy = fromInitialState(
      HEAVY_HASH_INITIAL_STATE,
      iw.map((w, i) => [i, w]),
    );
    const zero = Array.from({ length: 64 }, () => new Array<number>(64).fill(0));
    // a zero matrix leaves product = input, so the step reduces to cSHAKE256("HeavyHash")(input)
    expect([...heavyHash(zero, input)]).toEqual([...expectedHeavy]);
  });
});

describe("Pyrin's heavy hash (blake3s) in the Kaspa test support, against Pyrin's vectors", () => {
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

  test("the PoW hash is BLAKE3 over prePowHash ‖ timestamp ‖ 32 zero bytes ‖ nonce", () => {
    const v = PYRIN_POW_HASH;
    const prePow = new Uint8Array(32).fill(v.prePowByte);
    expect(hex(powHash(prePow, v.timestamp, v.nonce, PYRIN))).toBe(v.expected);
  });

  test("the heavy-hash step of rusty-kaspa's test matrix ends in BLAKE3 (Pyrin's rule before its relaunch)", () => {
    const input = Uint8Array.from(HEAVY_HASH.input);
    expect(hex(heavyHash(HEAVY_HASH.matrix, input, PYRIN_BEFORE_RELAUNCH))).toBe(PYRIN_HEAVY_HASH_EXPECTED);
    // the relaunch rule takes other bits of the same products: a different hash, nothing else changes
    expect(hex(heavyHash(HEAVY_HASH.matrix, input, PYRIN))).not.toBe(PYRIN_HEAVY_HASH_EXPECTED);
  });
});
