/**
 * The KawPow family's parsers and work unit without sockets, and the test pool's epoch seeds pinned
 * to a value published outside Pithead.
 */
import { describe, expect, test } from "bun:test";
import { StratumError } from "../../appliance/engine/stratum/bitcoin/errors.ts";
import {
  parseNotify,
  parseSetTarget,
  parseSubmit,
  parseSubscribeResult,
} from "../../appliance/engine/stratum/kawpow/messages.ts";
import { difficultyOfTarget } from "../../appliance/engine/stratum/kawpow/target.ts";
import {
  creditOfTarget,
  seedHashOfEpoch,
  seedHashOfHeight,
  targetHex,
  targetOfDifficulty,
} from "../support/kawpow/chain.ts";

const H = "ab".repeat(32);
const M = "cd".repeat(32);

describe("KawPow share parser", () => {
  test("takes a 0x nonce of 8 bytes, 0x header and mix hashes; refuses a nonce without 0x or of another length", () => {
    expect(parseSubmit(["w", "1a", "0x00aa000000000001", `0x${H}`, `0x${M}`])).toEqual({
      user: "w",
      jobId: "1a",
      nonce: "00aa000000000001",
      header: H,
      mix: M,
    });
    for (const nonce of [
      "00aa000000000001",
      "0x00aa0000000001",
      "0x00aa00000000000001",
      "0xzzaa000000000001",
    ]) {
      const e = parseSubmit(["w", "1a", nonce, `0x${H}`, `0x${M}`]);
      expect(e).toBeInstanceOf(StratumError);
      expect((e as StratumError).message).toContain("nonce");
    }
    expect(parseSubmit(["w", "1a", "0x00aa000000000001", H, `0x${M}`])).toBeInstanceOf(StratumError);
    expect(parseSubmit(["w", "1a", "0x00aa000000000001", `0x${H}`, "0x12"])).toBeInstanceOf(StratumError);
  });
});

describe("KawPow pool messages", () => {
  test("notify [jobId, header, seed, target, clean, height, bits]: hashes with or without 0x, a short target padded", () => {
    const n = parseNotify(["7", `0x${H}`, M, "ffff", true, 3_000_001, "1b00f968"]);
    expect(n).toEqual({
      jobId: "7",
      header: H,
      seed: M,
      target: "ffff".padStart(64, "0"),
      clean: true,
      height: 3_000_001,
      bits: "1b00f968",
    });
    expect(parseNotify(["7", H.slice(2), M, "ff", true])).toBeInstanceOf(StratumError);
  });

  test("subscribe answers [null, prefix] up to 3 bytes; set_target pads and refuses zero", () => {
    expect(parseSubscribeResult([null, "0a1f"])).toBe("0a1f");
    expect(parseSubscribeResult([null, ""])).toBe("");
    expect(parseSubscribeResult([null, "0a1f2b3c"])).toBeNull();
    expect(parseSetTarget(["00ff"])).toBe("00ff".padStart(64, "0"));
    expect(parseSetTarget(["0".repeat(64)])).toBeNull();
  });
});

describe("KawPow work unit", () => {
  test("the engine's difficulty of a target agrees with the test pool's credit, diff-1 = 0x00000000ff00…", () => {
    expect(difficultyOfTarget(`00000000ff${"0".repeat(54)}`)).toBe(1);
    for (const d of [2 ** -20, 0.5, 1, 3, 1024]) {
      const t = targetOfDifficulty(d);
      expect(difficultyOfTarget(targetHex(t))).toBeCloseTo(creditOfTarget(t), 9);
      expect(creditOfTarget(t) / d).toBeCloseTo(1, 6);
    }
  });
});

describe("epoch seeds (the test pool's seed hashes)", () => {
  test("epoch 0 is 32 zero bytes and epoch 1 is keccak-256 of them, the constant 290decd9… published in many Ethereum tools; 7500-block epochs", () => {
    expect(seedHashOfEpoch(0)).toBe("0".repeat(64));
    expect(seedHashOfEpoch(1)).toBe("290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563");
    expect(seedHashOfHeight(7_499)).toBe(seedHashOfEpoch(0));
    expect(seedHashOfHeight(7_500)).toBe(seedHashOfEpoch(1));
  });
});
