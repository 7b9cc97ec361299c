import { describe, expect, test } from "bun:test";
import {
  buildHeader,
  checkShare,
  headerHash,
  rollVersion,
} from "../../appliance/engine/stratum/bitcoin/pow.ts";
import {
  difficultyOfHash,
  hashesPerDifficulty,
  targetForDifficulty,
} from "../../appliance/engine/stratum/bitcoin/target.ts";

// The Bitcoin genesis block, cut into stratum pieces: the 4 bytes "04ffff00" of the scriptSig play
// extranonce1 and "1d01" extranonce2, so the header must hash to the famous genesis hash.
const coinbase =
  "01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000";
const cut = coinbase.indexOf("04ffff001d01");
const genesis = {
  coinb1: coinbase.slice(0, cut),
  extranonce1: "04ffff00",
  extranonce2: "1d01",
  coinb2: coinbase.slice(cut + 12),
  merkleBranch: [],
  prevHash: "00".repeat(32),
  version: "00000001",
  nbits: "1d00ffff",
  ntime: "495fab29",
  nonce: "7c2bac1d",
};
const GENESIS_HASH = BigInt("0x000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f");

describe("sha256d share verification", () => {
  test("the genesis header hashes to the genesis block hash", () => {
    const header = buildHeader(genesis);
    expect(header.length).toBe(80);
    expect(headerHash(header, "sha256d")).toBe(GENESIS_HASH);
  });

  test("genesis meets difficulty 1 but not difficulty 10,000", () => {
    expect(checkShare(genesis, 1, "sha256").meetsTarget).toBe(true);
    expect(checkShare(genesis, 10_000, "sha256").meetsTarget).toBe(false);
    const d = checkShare(genesis, 1, "sha256").difficulty;
    expect(d).toBeGreaterThan(2536);
    expect(d).toBeLessThan(2537);
  });

  test("a wrong nonce fails", () => {
    expect(checkShare({ ...genesis, nonce: "7c2bac1e" }, 1, "sha256").meetsTarget).toBe(false);
  });
});

describe("targets", () => {
  test("difficulty 1 is 0xffff·2^208 for sha256 and 0xffff·2^224 for scrypt", () => {
    expect(targetForDifficulty(1, "sha256")).toBe(0xffffn << 208n);
    expect(targetForDifficulty(1, "scrypt")).toBe(0xffffn << 224n);
    expect(targetForDifficulty(2, "sha256")).toBe((0xffffn << 208n) / 2n);
    expect(targetForDifficulty(1e-12, "sha256")).toBe((1n << 256n) - 1n);
  });

  test("difficultyOfHash inverts targetForDifficulty", () => {
    for (const d of [0.001, 1, 1234.5, 1e9]) {
      const back = difficultyOfHash(targetForDifficulty(d, "sha256"), "sha256");
      expect(Math.abs(back - d) / d).toBeLessThan(1e-9);
    }
  });

  test("algorithm factors", () => {
    expect(hashesPerDifficulty("scrypt")).toBe(65536);
    expect(hashesPerDifficulty("sha256")).toBeCloseTo(2 ** 32, -6);
  });

  test("scrypt headers are judged against the scrypt target", () => {
    const easy = checkShare(genesis, 1e-9, "scrypt");
    expect(easy.meetsTarget).toBe(true);
    expect(checkShare(genesis, easy.difficulty * 1.01, "scrypt").meetsTarget).toBe(false);
    expect(checkShare(genesis, easy.difficulty * 0.99, "scrypt").meetsTarget).toBe(true);
  });

  test("version rolling keeps bits outside the mask", () => {
    expect(rollVersion("20000000", "1fffe000", 0x1fffe000)).toBe("3fffe000");
    expect(rollVersion("20000000", "ffffffff", 0x00002000)).toBe("20002000");
    expect(rollVersion("20000000", null, 0x1fffe000)).toBe("20000000");
  });
});
