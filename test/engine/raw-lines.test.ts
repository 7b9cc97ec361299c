/**
 * RawLineSplitter (line-codec.ts): the exact bytes of each line, for the pass-through relay, and the
 * LineSplitter built on it still trims, skips blank lines and decodes.
 */
import { describe, expect, test } from "bun:test";
import { LineSplitter, lineSink, RawLineSplitter } from "../../appliance/engine/stratum/line-codec.ts";

const enc = (s: string) => new TextEncoder().encode(s);

function raw(max: number, chunks: Uint8Array[]): { lines: number[][]; overflowed: boolean } {
  const out = { lines: [] as number[][], overflowed: false };
  const s = new RawLineSplitter(max, {
    onRawLine: (l) => out.lines.push([...l]),
    onOverflow: () => {
      out.overflowed = true;
    },
  });
  for (const c of chunks) s.push(c);
  return out;
}

describe("raw lines", () => {
  test("CRLF, blank lines and bytes that are not UTF-8 come out as they went in, across chunks", () => {
    const bytes = new Uint8Array([...enc('{"a":1}\r\n\n{"b":'), 0xff, 0xfe, ...enc("}\n")]);
    const r = raw(64, [bytes.subarray(0, 5), bytes.subarray(5, 12), bytes.subarray(12)]);
    expect(r.lines).toEqual([[...enc('{"a":1}\r\n')], [10], [...enc('{"b":'), 0xff, 0xfe, ...enc("}\n")]]);
  });

  test("a line over the bound, complete or not, overflows once and nothing follows", () => {
    expect(raw(4, [enc("12345\nok\n")])).toEqual({ lines: [], overflowed: true });
    expect(raw(4, [enc("ok\n12345")])).toEqual({ lines: [[...enc("ok\n")]], overflowed: true });
  });

  test("LineSplitter over it trims the ending, skips blank lines and decodes", () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      64,
      lineSink(
        (l) => lines.push(l),
        () => {},
      ),
    );
    s.push(enc("a\r\n\n\r\nb"));
    s.push(enc("c\n"));
    expect(lines).toEqual(["a", "bc"]);
  });
});
