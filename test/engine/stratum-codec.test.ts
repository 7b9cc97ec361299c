import { describe, expect, test } from "bun:test";
import { ErrorCode, StratumError } from "../../appliance/engine/stratum/bitcoin/errors.ts";
import {
  parseAuthorize,
  parseConfigure,
  parseNotify,
  parseReconnect,
  parseSubmit,
  parseSubscribeResult,
} from "../../appliance/engine/stratum/bitcoin/messages.ts";
import { LineSplitter, lineSink, PoolLineSplitter } from "../../appliance/engine/stratum/line-codec.ts";
import { parseMessage, parsePositional } from "../../appliance/engine/stratum/message.ts";

const enc = new TextEncoder();

/** A splitter of lines up to `max` bytes and what it delivered, "OVERFLOW" for an overflow. */
function splitter(max: number, Kind: typeof LineSplitter = LineSplitter): { s: LineSplitter; out: string[] } {
  const out: string[] = [];
  const s = new Kind(
    max,
    lineSink(
      (l) => out.push(l),
      () => out.push("OVERFLOW"),
    ),
  );
  return { s, out };
}

describe("LineSplitter", () => {
  test("joins partial chunks and splits several lines in order, dropping CR and blanks", () => {
    const { s, out: lines } = splitter(100);
    s.push(enc.encode('{"a":'));
    s.push(enc.encode('1}\r\n\n{"b":2}\n{"c"'));
    s.push(enc.encode(":3}\n"));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test("reports overflow once for a line above the bound, with or without newline", () => {
    const { s, out } = splitter(8);
    s.push(enc.encode("ok\n0123456789"));
    s.push(enc.encode("more\nx\n"));
    expect(out).toEqual(["ok", "OVERFLOW"]);
  });

  test("splits multi-byte UTF-8 across chunks correctly", () => {
    const { s, out } = splitter(100);
    const bytes = enc.encode("矿工\n");
    s.push(bytes.subarray(0, 2));
    s.push(bytes.subarray(2));
    expect(out).toEqual(["矿工"]);
  });

  test("decodes a chunk that is a view into a larger buffer, and replaces invalid UTF-8 with U+FFFD", () => {
    const { s, out } = splitter(100);
    const backing = enc.encode('junk{"w":"é"}\r\nxy\n');
    s.push(backing.subarray(4, 13));
    s.push(backing.subarray(13));
    const bad = new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a]);
    s.push(bad.subarray(0));
    expect(out).toEqual(['{"w":"é"}', "xy", "a\ufffd\ufffdb"]);
  });

  test("a pool session's splitter hands over repeated long lines exactly, told apart by every byte", () => {
    // Two sessions receive the same job line; a third line has the same length and differs only
    // in its last parameter, and a fourth only in its first byte. Each must arrive as sent.
    const body = "ab".repeat(200);
    const job = (tail: string) => `{"id":null,"method":"mining.notify","params":["${body}","${tail}"]}`;
    const a = splitter(4096, PoolLineSplitter);
    const b = splitter(4096, PoolLineSplitter);
    const wire = enc.encode(`xx${job("0001")}\r\n${job("0002")}\n[${job("0001").slice(1)}\n`);
    a.s.push(wire.subarray(2, 300));
    a.s.push(wire.subarray(300));
    b.s.push(enc.encode(`${job("0001")}\n${job("0002")}\n${job("0003")}\n`));
    b.s.push(enc.encode(`${job("0001").slice(0, -1)}\u00e9\n`));
    expect(a.out).toEqual([job("0001"), job("0002"), `[${job("0001").slice(1)}`]);
    expect(b.out).toEqual([job("0001"), job("0002"), job("0003"), `${job("0001").slice(0, -1)}\u00e9`]);
  });
});

describe("parseMessage", () => {
  test("tells requests from responses and rejects junk", () => {
    expect(parseMessage('{"id":1,"method":"mining.subscribe","params":[]}')).toEqual({
      kind: "request",
      id: 1,
      method: "mining.subscribe",
      params: [],
    });
    expect(parseMessage('{"id":2,"result":true,"error":null}')?.kind).toBe("response");
    expect(parseMessage("not json")).toBeNull();
    expect(parseMessage("[1,2]")).toBeNull();
    expect(parseMessage('{"id":{},"method":"x","params":[]}')).toBeNull();
    expect(parseMessage('{"id":1,"method":"x","params":"a"}')).toBeNull();
    expect(parseMessage('{"id":1,"other":true}')).toBeNull();
    // a notification has id null; a request without params has none; only error is a response
    expect(parseMessage('{"method":"mining.notify"}')).toMatchObject({ id: null, params: [] });
    expect(parseMessage('{"id":3,"error":[21,"x",null]}')).toMatchObject({ kind: "response", id: 3 });
    // ETHPROXY's top-level rig name: kept when a non-empty string, at most 128 characters
    const rig = (w: string) => parseMessage(`{"id":1,"method":"eth_submitLogin","params":[],"worker":${w}}`);
    expect((rig(`"${"r".repeat(200)}"`) as { worker?: string }).worker).toBe("r".repeat(128));
    expect((rig("7") as { worker?: string }).worker).toBeUndefined();
    expect((rig('""') as { worker?: string }).worker).toBeUndefined();
  });

  test("accepts named params (xmrig's login) and positional-only families refuse them", () => {
    const login =
      '{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"4A","pass":"x","agent":"XMRig/6.21"}}';
    // fields a family does not read (jsonrpc) may stay on the message
    expect(parseMessage(login)).toMatchObject({
      kind: "request",
      id: 1,
      method: "login",
      params: { login: "4A", pass: "x", agent: "XMRig/6.21" },
    });
    expect(parsePositional(login)).toBeNull();
    expect(parsePositional('{"id":1,"method":"mining.subscribe","params":["a"]}')?.kind).toBe("request");
  });
});

describe("Bitcoin parsers", () => {
  test("submit: valid with and without version bits; bad hex is a StratumError", () => {
    expect(parseSubmit(["w.1", "j1", "00aa", "5f5e1000", "DEADBEEF"])).toEqual({
      worker: "w.1",
      jobId: "j1",
      extranonce2: "00aa",
      ntime: "5f5e1000",
      nonce: "deadbeef",
      versionBits: null,
    });
    expect(
      (parseSubmit(["w", "j", "00", "5f5e1000", "00000000", "00002000"]) as { versionBits: string })
        .versionBits,
    ).toBe("00002000");
    const bad = parseSubmit(["w", "j", "0", "5f5e1000", "00000000"]);
    expect(bad).toBeInstanceOf(StratumError);
    expect((bad as StratumError).code).toBe(ErrorCode.OTHER);
    expect(parseSubmit(["w", "j", "00", "5f5e10", "00000000"])).toBeInstanceOf(StratumError);
  });

  test("authorize requires a user", () => {
    expect(parseAuthorize(["a.b", "x"])).toEqual({ user: "a.b", password: "x" });
    expect(parseAuthorize([])).toBeInstanceOf(StratumError);
  });

  test("configure reads the version-rolling mask", () => {
    const c = parseConfigure([["version-rolling"], { "version-rolling.mask": "1fffe000" }]);
    expect(c).toEqual({ extensions: ["version-rolling"], versionRollingMask: 0x1fffe000, minBitCount: 0 });
    expect(
      (parseConfigure([["minimum-difficulty"], {}]) as { versionRollingMask: null }).versionRollingMask,
    ).toBeNull();
    expect(parseConfigure(["x"])).toBeInstanceOf(StratumError);
  });

  test("notify validates field widths", () => {
    const ok = [
      "j",
      "00".repeat(32),
      "01",
      "02",
      ["11".repeat(32)],
      "20000000",
      "1d00ffff",
      "5f5e1000",
      true,
    ];
    expect((parseNotify(ok) as { cleanJobs: boolean }).cleanJobs).toBe(true);
    expect(parseNotify(["j", "00", "01", "02", [], "20000000", "1d00ffff", "5f5e1000", true])).toBeInstanceOf(
      StratumError,
    );
  });

  test("subscribe result and reconnect", () => {
    expect(parseSubscribeResult([[["mining.notify", "ab"]], "0a0b0c0d", 4])).toEqual({
      extranonce1: "0a0b0c0d",
      extranonce2Size: 4,
      sessionId: "ab",
    });
    expect(parseSubscribeResult([[], "zz", 4])).toBeInstanceOf(StratumError);
    expect(parseReconnect(["h", "3333", 5])).toEqual({ host: "h", port: 3333, waitSeconds: 5 });
    expect(parseReconnect([])).toEqual({ host: null, port: null, waitSeconds: 0 });
  });
});
