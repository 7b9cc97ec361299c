/** Kaspa parsers and job lines without sockets: big u64 words survive, both notify forms, nonces. */
import { describe, expect, test } from "bun:test";
import { EthError } from "../../appliance/engine/stratum/ethereum/errors.ts";
import { KaspaJob } from "../../appliance/engine/stratum/kaspa/job.ts";
import {
  parseNotify,
  parseSubmit,
  parseSubscribeResult,
} from "../../appliance/engine/stratum/kaspa/messages.ts";
import { fullNonce } from "../../appliance/engine/stratum/kaspa/session.ts";
import type { KaspaUpstream } from "../../appliance/engine/stratum/kaspa/upstream.ts";
import { writtenLine } from "../support/stratum/written-line.ts";

// words above 2^53: JSON.parse would round every one of them
const WORDS = ["18446744073709551615", "9007199254740993", "12345678901234567891", "1"];
const LINE = `{"id":null,"method":"mining.notify","params":["7",[${WORDS.join(",")}],1700000000123]}`;

describe("Kaspa notify", () => {
  test("the u64 form is read from the line's text and re-sent with the same integers", () => {
    const n = parseNotify(LINE, JSON.parse(LINE).params);
    if (n instanceof EthError) throw new Error(n.message);
    expect(n.prePow.slice(0, 16)).toBe("ffffffffffffffff");
    expect(n.timestamp).toBe(1700000000123n);
    const origin = { id: 1, target: "main", user: null, shared: false };
    const job = new KaspaJob(origin, {} as KaspaUpstream, { notify: n, difficulty: 1, extranonce: "" });
    expect(writtenLine((out) => job.writeNotify(out, "u64"))).toContain(
      `[${WORDS.join(",")}],1700000000123]`,
    );
    // the hex form: hash ‖ timestamp as a little-endian u64
    const hex = writtenLine((out) => job.writeNotify(out, "hex"));
    expect(hex).toContain(`"${n.prePow}7b68e5cf8b010000"`);
    const back = parseNotify(hex, JSON.parse(hex).params);
    expect(back).toMatchObject({ jobId: job.jobId, prePow: n.prePow, timestamp: n.timestamp });
    // a shared session's job: every miner given it, in either form, is sent the same line
    const shared = new KaspaJob({ ...origin, shared: true }, {} as KaspaUpstream, job.work);
    for (const form of ["hex", "u64", "hex"] as const)
      expect(writtenLine((out) => shared.writeNotify(out, form))).toBe(
        writtenLine((out) => job.writeNotify(out, form)).replace(`"${job.jobId}"`, `"${shared.jobId}"`),
      );
  });

  test("a word above 2^64 or a wrong shape is refused", () => {
    const over = LINE.replace("18446744073709551615", "18446744073709551616");
    expect(parseNotify(over, JSON.parse(over).params)).toBeInstanceOf(EthError);
    const short = `{"id":null,"method":"mining.notify","params":["7","abcd"]}`;
    expect(parseNotify(short, JSON.parse(short).params)).toBeInstanceOf(EthError);
  });
});

describe("Kaspa subscribe answers and submits", () => {
  test("the bridge's, Bitmain's and ES1's subscribe answers", () => {
    expect(parseSubscribeResult([true, "EthereumStratum/1.0.0"])).toEqual({ extranonce: "" });
    expect(parseSubscribeResult([null, "ab", 7])).toEqual({ extranonce: "ab" });
    expect(parseSubscribeResult([["mining.notify", "1", "EthereumStratum/1.0.0"], "abcd"])).toEqual({
      extranonce: "abcd",
    });
    expect(parseSubscribeResult(false)).toBeNull();
  });

  test("a nonce is the whole u64 starting with the prefix, or the part after it", () => {
    expect(parseSubmit(["w", "1", "0xAB00000000000001"])).toEqual({
      user: "w",
      jobId: "1",
      nonce: "ab00000000000001",
    });
    expect(parseSubmit(["w", "1", "0xzz"])).toBeInstanceOf(EthError);
    expect(parseSubmit(["w", "1", "1".repeat(17)])).toBeInstanceOf(EthError);
    expect(fullNonce("ab00000000000001", "ab")).toBe("ab00000000000001");
    expect(fullNonce("ac00000000000001", "ab")).toBeNull();
    expect(fullNonce("1", "ab01")).toBe("ab01000000000001");
    expect(fullNonce("1234567890abc", "ab01")).toBeNull();
    expect(fullNonce("5", "")).toBe("0000000000000005");
  });
});
