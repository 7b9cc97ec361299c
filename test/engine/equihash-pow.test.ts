/**
 * The test Equihash verifier and solver (test/support/equihash/equihash.ts) against a real block:
 * the Zcash genesis block's 200,9 solution verifies and its header and solution hash to the block
 * hash zcash/zcash asserts; a changed index or header fails. The solver's solutions, with the
 * reduced Equihash parameters the tests mine at, verify.
 */
import { describe, expect, test } from "bun:test";
import { hexToBytes } from "@noble/hashes/utils.js";
import {
  decodeIndices,
  encodeIndices,
  solutionBytes,
  solve,
  TEST_PARAMS,
  verify,
  withLength,
} from "../support/equihash/equihash.ts";
import { hashValue, headerBytes, leHex } from "../support/equihash/header.ts";
import { GENESIS } from "../support/equihash/reference-vectors.ts";

const ZEC = { n: 200, k: 9 };
const genesisHeader = (): Uint8Array =>
  headerBytes(
    {
      version: leHex(GENESIS.version, 4),
      prevHash: "00".repeat(32),
      merkleRoot: leHex(BigInt(`0x${GENESIS.merkleRoot}`), 32),
      reserved: "00".repeat(32),
      time: leHex(GENESIS.time, 4),
      bits: leHex(GENESIS.bits, 4),
    },
    leHex(GENESIS.nonce, 32),
    "",
  );

describe("Equihash verifier pinned by the Zcash genesis block (200,9)", () => {
  test("the genesis solution is 1344 bytes, verifies, and the block hashes to 00040fe8…ce08", () => {
    const sol = hexToBytes(GENESIS.solution);
    expect(sol.length).toBe(solutionBytes(ZEC));
    const header = genesisHeader();
    expect(verify(ZEC, header, sol)).toBe(true);
    expect(hashValue(header, withLength(sol))).toBe(BigInt(`0x${GENESIS.blockHash}`));
  });

  test("a header with another nonce, or a solution with two indices swapped, does not verify", () => {
    const sol = hexToBytes(GENESIS.solution);
    const header = genesisHeader();
    header[139] = 1;
    expect(verify(ZEC, header, sol)).toBe(false);
    const idx = decodeIndices(ZEC, sol);
    [idx[0], idx[1]] = [idx[1] as number, idx[0] as number];
    expect(verify(ZEC, genesisHeader(), encodeIndices(ZEC, idx))).toBe(false);
  });
});

describe("solver with the reduced Equihash parameters in the test (48,5)", () => {
  test("Wagner's algorithm finds solutions that verify; none verify under another header", () => {
    let found = 0;
    for (let nonce = 0; found < 3 && nonce < 40; nonce++) {
      const header = new Uint8Array(140);
      header[108] = nonce;
      for (const s of solve(TEST_PARAMS, header)) {
        expect(s.length).toBe(36);
        expect(verify(TEST_PARAMS, header, s)).toBe(true);
        const other = header.slice();
        other[0] = 1;
        expect(verify(TEST_PARAMS, other, s)).toBe(false);
        found++;
      }
    }
    expect(found).toBeGreaterThanOrEqual(3);
  });
});
