/**
 * Equihash for tests, written from the published algorithm (Biryukov–Khovratovich, "Equihash:
 * asymmetric proof-of-work based on the generalized birthday problem", as Zcash specifies it in
 * its protocol specification §7.6.1), independently of the engine, which never runs Equihash:
 *
 * - X_i, the i-th n-bit string: BLAKE2b with personalisation "ZcashPoW" ‖ le32(n) ‖ le32(k) and
 *   output length ⌊512/n⌋·n/8, over the 140-byte header (nonce included) ‖ le32(⌊i / ⌊512/n⌋⌋);
 *   X_i is the (i mod ⌊512/n⌋)-th n/8-byte slice of that output;
 * - a solution is 2^k indices of n/(k+1)+1 bits each, packed big-endian; valid when the tree of its
 *   indices, merged pairwise k times, has at level r the first r·n/(k+1) bits of every XOR zero
 *   (the whole XOR zero at the top), every left subtree's first index below its right's, and no
 *   index twice;
 * - the solver is Wagner's algorithm, affordable in a test only with reduced parameters (n=48, k=5:
 *   512 strings, 36-byte solutions); the verifier takes any parameters and is pinned by the Zcash
 *   genesis block (200,9), reference-vectors.ts.
 *
 * n must be a multiple of 8 (all the parameters tested here are).
 */
import { blake2b } from "@noble/hashes/blake2.js";

export interface Params {
  readonly n: number;
  readonly k: number;
}

/** Reduced parameters the test pool and miner use for live shares (see the file comment). */
export const TEST_PARAMS: Params = { n: 48, k: 5 };

const collisionBits = (p: Params): number => p.n / (p.k + 1);

export const solutionBytes = (p: Params): number => (2 ** p.k * (collisionBits(p) + 1)) / 8;

function personal(p: Params): Uint8Array {
  const out = new Uint8Array(16);
  out.set(new TextEncoder().encode("ZcashPoW"));
  const v = new DataView(out.buffer);
  v.setUint32(8, p.n, true);
  v.setUint32(12, p.k, true);
  return out;
}

/** BLAKE2b output number g: ⌊512/n⌋ consecutive strings X_i. */
function hashGroup(p: Params, header: Uint8Array, g: number): Uint8Array {
  const input = new Uint8Array(header.length + 4);
  input.set(header);
  new DataView(input.buffer).setUint32(header.length, g, true);
  return blake2b(input, { dkLen: Math.floor(512 / p.n) * (p.n / 8), personalization: personal(p) });
}

/** X_i for the given indices only (a 200,9 verifier must not expand all 2^21 of them). */
export function stringsAt(p: Params, header: Uint8Array, indices: readonly number[]): bigint[] {
  const perHash = Math.floor(512 / p.n);
  const bytes = p.n / 8;
  const groups = new Map<number, Uint8Array>();
  return indices.map((i) => {
    const g = Math.floor(i / perHash);
    let h = groups.get(g);
    if (h === undefined) {
      h = hashGroup(p, header, g);
      groups.set(g, h);
    }
    const j = i % perHash;
    return BigInt(`0x${Buffer.from(h.subarray(j * bytes, (j + 1) * bytes)).toString("hex")}`);
  });
}

/** The n-bit strings X_i for every index i < 2^(n/(k+1)+1) (the solver's input). */
export function generate(p: Params, header: Uint8Array): bigint[] {
  return stringsAt(
    p,
    header,
    Array.from({ length: 2 ** (collisionBits(p) + 1) }, (_, i) => i),
  );
}

export function decodeIndices(p: Params, solution: Uint8Array): number[] {
  const width = collisionBits(p) + 1;
  let bits = 0n;
  for (const b of solution) bits = (bits << 8n) | BigInt(b);
  const total = solution.length * 8;
  const out: number[] = [];
  for (let i = 0; i < 2 ** p.k; i++) {
    const shift = BigInt(total - (i + 1) * width);
    out.push(Number((bits >> shift) & ((1n << BigInt(width)) - 1n)));
  }
  return out;
}

export function encodeIndices(p: Params, indices: readonly number[]): Uint8Array {
  const width = BigInt(collisionBits(p) + 1);
  let bits = 0n;
  for (const i of indices) bits = (bits << width) | BigInt(i);
  const out = new Uint8Array(solutionBytes(p));
  for (let j = out.length - 1; j >= 0; j--) {
    out[j] = Number(bits & 0xffn);
    bits >>= 8n;
  }
  return out;
}

interface Node {
  x: bigint;
  idx: number[];
}

/** Whether `solution` (without its length prefix) solves Equihash(n, k) for the 140-byte `header`. */
export function verify(p: Params, header: Uint8Array, solution: Uint8Array): boolean {
  if (solution.length !== solutionBytes(p)) return false;
  const indices = decodeIndices(p, solution);
  if (new Set(indices).size !== indices.length) return false;
  const c = collisionBits(p);
  const xs = stringsAt(p, header, indices);
  let level: Node[] = indices.map((i, j) => ({ x: xs[j] as bigint, idx: [i] }));
  for (let r = 1; r <= p.k; r++) {
    const next: Node[] = [];
    for (let j = 0; j < level.length; j += 2) {
      const a = level[j] as Node;
      const b = level[j + 1] as Node;
      if ((a.idx[0] as number) >= (b.idx[0] as number)) return false;
      const x = a.x ^ b.x;
      // the first r·c bits of the XOR must be zero; at the top, all n bits
      const free = r === p.k ? 0 : p.n - r * c;
      if (x >> BigInt(free) !== 0n) return false;
      next.push({ x, idx: [...a.idx, ...b.idx] });
    }
    level = next;
  }
  return level.length === 1 && (level[0] as Node).x === 0n;
}

/** Every solution Wagner's algorithm finds for the header (often none or a few), as raw bytes. */
export function solve(p: Params, header: Uint8Array): Uint8Array[] {
  const c = collisionBits(p);
  let level: Node[] = generate(p, header).map((x, i) => ({ x, idx: [i] }));
  for (let r = 1; r <= p.k; r++) {
    const free = BigInt(r === p.k ? 0 : p.n - r * c);
    const buckets = new Map<bigint, Node[]>();
    for (const node of level) {
      const key = node.x >> free;
      const b = buckets.get(key);
      if (b === undefined) buckets.set(key, [node]);
      else b.push(node);
    }
    const next: Node[] = [];
    for (const b of buckets.values())
      for (let i = 0; i < b.length; i++)
        for (let j = i + 1; j < b.length; j++) {
          const [a, d] =
            ((b[i] as Node).idx[0] as number) < ((b[j] as Node).idx[0] as number)
              ? [b[i] as Node, b[j] as Node]
              : [b[j] as Node, b[i] as Node];
          const idx = [...a.idx, ...d.idx];
          if (new Set(idx).size !== idx.length) continue;
          next.push({ x: a.x ^ d.x, idx });
        }
    level = next;
  }
  return level.filter((n) => n.x === 0n).map((n) => encodeIndices(p, n.idx));
}

/** A solution as it goes on the wire: its compactSize length, then its bytes. */
export function withLength(solution: Uint8Array): Uint8Array {
  const n = solution.length;
  const prefix = n < 0xfd ? Uint8Array.of(n) : Uint8Array.of(0xfd, n & 0xff, n >> 8);
  const out = new Uint8Array(prefix.length + n);
  out.set(prefix);
  out.set(solution, prefix.length);
  return out;
}
