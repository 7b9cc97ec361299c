/**
 * The Equihash family's parsers and parameter table: a solution's compactSize length (one byte
 * below 0xfd, fd + two bytes little-endian above), the ZIP 301 notify and submit shapes, and the
 * solution length each coin of the catalogue must send.
 */
import { describe, expect, test } from "bun:test";
import { CURRENCIES } from "../../appliance/catalog/currencies.ts";
import { StratumError } from "../../appliance/engine/stratum/bitcoin/errors.ts";
import {
  parseNotify,
  parseSetTarget,
  parseSubmit,
  parseSubscribeResult,
  solutionLength,
} from "../../appliance/engine/stratum/equihash/messages.ts";
import { paramsOf, solutionBytes } from "../../appliance/engine/stratum/equihash/params.ts";

describe("Equihash messages", () => {
  test("a solution's compactSize length: one byte below 0xfd, fd + little-endian u16 from 0xfd, anything else malformed", () => {
    expect(solutionLength(`34${"00".repeat(52)}`)).toEqual({ bytes: 52, prefixHex: 2 });
    expect(solutionLength(`fd4005${"00".repeat(1344)}`)).toEqual({ bytes: 1344, prefixHex: 6 });
    // fd with a length below 0xfd is not minimal, fe/ff would be 4- and 8-byte lengths
    expect(solutionLength("fd1000")).toBeNull();
    expect(solutionLength("fe00000100")).toBeNull();
  });

  test("submit [worker, jobId, time, NONCE_2, solution]: the solution's prefix must agree with its length", () => {
    const ok = parseSubmit(["w.1", "a", "5c6f0a00", "00ff", `24${"ab".repeat(36)}`]);
    expect(ok).toEqual({
      user: "w.1",
      jobId: "a",
      time: "5c6f0a00",
      nonce2: "00ff",
      solution: `24${"ab".repeat(36)}`,
    });
    expect(parseSubmit(["w.1", "a", "5c6f0a00", "00ff", `24${"ab".repeat(35)}`])).toBeInstanceOf(
      StratumError,
    );
    expect(parseSubmit(["w.1", "a", "5c6f0a", "00ff", `24${"ab".repeat(36)}`])).toBeInstanceOf(StratumError);
    expect(parseSubmit(["w.1", "a", "5c6f0a00", "0g", `24${"ab".repeat(36)}`])).toBeInstanceOf(StratumError);
    expect(parseSubmit(["w.1", "a", "5c6f0a00", "00".repeat(33), `24${"ab".repeat(36)}`])).toBeInstanceOf(
      StratumError,
    );
  });

  test("notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean] as header hex; set_target pads; subscribe gives NONCE_1", () => {
    const h = "11".repeat(32);
    expect(parseNotify(["1", "04000000", h, h, h, "5c6f0a00", "ffff071f", true])).toEqual({
      jobId: "1",
      version: "04000000",
      prevHash: h,
      merkleRoot: h,
      reserved: h,
      time: "5c6f0a00",
      bits: "ffff071f",
      clean: true,
    });
    expect(parseNotify(["1", "04000000", h, h, "00", "5c6f0a00", "ffff071f", true])).toBeInstanceOf(
      StratumError,
    );
    expect(parseSetTarget(["0007ff"])).toBe("0007ff".padStart(64, "0"));
    expect(parseSetTarget(["00"])).toBeNull();
    expect(parseSubscribeResult([null, "a1b2c3d4"])).toBe("a1b2c3d4");
    expect(parseSubscribeResult([null, "00".repeat(29)])).toBeNull();
  });

  test("each Equihash coin of the catalogue has its parameters: 1344, 100, 400 or 52 solution bytes", () => {
    const lengths = Object.fromEntries(
      CURRENCIES.filter((c) => c.category === "equihash").map((c) => {
        const p = paramsOf(c.coin);
        return [c.coin, p === null ? null : solutionBytes(p)];
      }),
    );
    expect(lengths).toEqual({
      ZEC: 1344,
      ZEN: 1344,
      FLUX: 52,
      BTG: 100,
      KMD: 1344,
      ARRR: 1344,
      BTCZ: 100,
      ZCL: 400,
      YEC: 400,
    });
    expect(paramsOf("EQT")).toBeNull();
  });
});
