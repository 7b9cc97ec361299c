/** The Ethereum family's parsers and work units, without sockets. */
import { describe, expect, test } from "bun:test";
import { EthError } from "../../appliance/engine/stratum/ethereum/errors.ts";
import {
  parseNicehashSubmit,
  parseNicehashSubscribe,
  parseSubmitHashrate,
  parseSubmitWork,
  parseSubscribeResult,
  parseWork,
} from "../../appliance/engine/stratum/ethereum/messages.ts";
import { difficultyOfBoundary } from "../../appliance/engine/stratum/ethereum/target.ts";
import { boundaryForDifficulty, workOfBoundary } from "../support/ethereum/difficulty.ts";

const hex64 = (n: bigint) => n.toString(16).padStart(64, "0");

describe("ETHPROXY boundary → difficulty in NiceHash units", () => {
  test("2^224 is difficulty 1; halving the boundary doubles it; it agrees with the test pool's credit", () => {
    expect(difficultyOfBoundary(hex64(1n << 224n))).toBe(1);
    expect(difficultyOfBoundary(hex64(1n << 223n))).toBe(2);
    expect(difficultyOfBoundary(hex64(1n << 254n))).toBe(2 ** -30);
    for (const d of [2 ** -32, 2 ** -20, 0.5, 3, 1e6]) {
      const b = boundaryForDifficulty(d);
      expect(difficultyOfBoundary(hex64(b))).toBeCloseTo(workOfBoundary(b), 12);
    }
  });
});

describe("miner-side parsers", () => {
  test("eth_submitWork: 0x-prefixed 8-byte nonce, 32-byte header and mix, lower-cased; anything else refused", () => {
    const ok = parseSubmitWork([`0x${"AB".repeat(8)}`, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`]);
    expect(ok).toEqual({ nonce: "ab".repeat(8), header: "11".repeat(32), mix: "22".repeat(32) });
    for (const bad of [
      ["0xzz", `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`],
      [`0x${"00".repeat(7)}`, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`],
      [`0x${"00".repeat(8)}`, `0x${"11".repeat(31)}`, `0x${"22".repeat(32)}`],
      [`0x${"00".repeat(8)}`, `0x${"11".repeat(32)}`, 7],
    ])
      expect(parseSubmitWork(bad)).toBeInstanceOf(EthError);
  });

  test("eth_submitHashrate reads the 32-byte rate; mining.subscribe needs EthereumStratum/1.0.0", () => {
    expect(parseSubmitHashrate([`0x${(123456789).toString(16).padStart(64, "0")}`, "0x01"])).toBe(123456789);
    expect(parseSubmitHashrate(["0xnothex", "0x01"])).toBeInstanceOf(EthError);
    expect(parseNicehashSubscribe(["miner/1", "EthereumStratum/1.0.0"])).toBe("miner/1");
    expect(parseNicehashSubscribe(["miner/1", "EthereumStratum/2.0.0"])).toBeInstanceOf(EthError);
    expect(parseNicehashSubscribe(["miner/1"])).toBeInstanceOf(EthError);
  });

  test("mining.submit: the miner nonce is hex (0x tolerated) of at most 8 bytes", () => {
    expect(parseNicehashSubmit(["w.r", "1a", "0xABCDEF0123"])).toEqual({
      user: "w.r",
      jobId: "1a",
      minerNonce: "abcdef0123",
    });
    expect(parseNicehashSubmit(["w.r", "1a", "abc"])).toBeInstanceOf(EthError);
    expect(parseNicehashSubmit(["w.r", "1a", "00".repeat(9)])).toBeInstanceOf(EthError);
    expect(parseNicehashSubmit(["w.r", "", "00"])).toBeInstanceOf(EthError);
  });
});

describe("pool-side parsers", () => {
  test("work arrays and subscribe answers", () => {
    expect(parseWork([`0x${"11".repeat(32)}`, `0x${"00".repeat(32)}`, "0xffff", "0x10"])).toEqual({
      header: "11".repeat(32),
      seed: "00".repeat(32),
      boundary: "ffff".padStart(64, "0"),
    });
    expect(parseWork(["0x11", "0x00", "0x01"])).toBeNull();
    expect(parseWork({ header: "x" })).toBeNull();
    expect(
      parseSubscribeResult([
        ["mining.notify", "ae6812eb4cd7735a302a8a9dd95cf71f", "EthereumStratum/1.0.0"],
        "080c",
      ]),
    ).toBe("080c");
    expect(parseSubscribeResult([[], "0102030405"])).toBeNull();
  });
});
