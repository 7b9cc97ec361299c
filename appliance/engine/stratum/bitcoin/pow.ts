/**
 * Share verification in the byte order real miners use (protocols.md, "Verifying a sha256d share").
 * Used by the test pool and the test miner; the proxy itself relies on the pool's verdict.
 */
import { createHash, scryptSync } from "node:crypto";
import { difficultyOfHash, leToBigInt, type PowAlgorithm, targetForDifficulty } from "./target.ts";

export function sha256d(data: Uint8Array): Buffer {
  return createHash("sha256").update(createHash("sha256").update(data).digest()).digest();
}

export function scryptHash(header: Uint8Array): Buffer {
  return scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 });
}

const reverse4 = (hex: string): Buffer => Buffer.from(hex, "hex").reverse();

/** prevhash as sent in notify has each 4-byte word byte-swapped relative to the header. */
function swapWords(hex: string): Buffer {
  const b = Buffer.from(hex, "hex");
  for (let i = 0; i < b.length; i += 4) {
    const w = b.subarray(i, i + 4);
    w.reverse();
  }
  return b;
}

export function merkleRoot(coinbase: Uint8Array, branch: readonly string[]): Buffer {
  let root = sha256d(coinbase);
  for (const b of branch) root = sha256d(Buffer.concat([root, Buffer.from(b, "hex")]));
  return root;
}

export interface HeaderParts {
  coinb1: string;
  extranonce1: string;
  extranonce2: string;
  coinb2: string;
  merkleBranch: readonly string[];
  prevHash: string;
  /** 8 hex, as in notify */
  version: string;
  nbits: string;
  ntime: string;
  nonce: string;
}

export function buildHeader(p: HeaderParts): Buffer {
  const coinbase = Buffer.from(p.coinb1 + p.extranonce1 + p.extranonce2 + p.coinb2, "hex");
  const root = merkleRoot(coinbase, p.merkleBranch);
  return Buffer.concat([
    reverse4(p.version),
    swapWords(p.prevHash),
    root,
    reverse4(p.ntime),
    reverse4(p.nbits),
    reverse4(p.nonce),
  ]);
}

/** nVersion = (job_version & ~mask) | (version_bits & mask), as 8 hex. */
export function rollVersion(jobVersion: string, versionBits: string | null, mask: number): string {
  if (versionBits === null) return jobVersion;
  const v = Number.parseInt(jobVersion, 16) >>> 0;
  const bits = Number.parseInt(versionBits, 16) >>> 0;
  return (((v & ~mask) | (bits & mask)) >>> 0).toString(16).padStart(8, "0");
}

export function headerHash(header: Uint8Array, algorithm: PowAlgorithm): bigint {
  return leToBigInt(algorithm === "scrypt" ? scryptHash(header) : sha256d(header));
}

export function algorithmOf(category: string): PowAlgorithm {
  return category === "scrypt" ? "scrypt" : "sha256d";
}

export interface ShareCheck {
  /** difficulty the share's hash meets */
  difficulty: number;
  meetsTarget: boolean;
}

export function checkShare(parts: HeaderParts, difficulty: number, category: string): ShareCheck {
  const h = headerHash(buildHeader(parts), algorithmOf(category));
  return {
    difficulty: difficultyOfHash(h, category),
    meetsTarget: h <= targetForDifficulty(difficulty, category),
  };
}
