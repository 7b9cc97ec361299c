/**
 * RMS3's compact lines (docs/rms-tunnel.md, "Compact lines"): what the engine's encoder makes of a
 * stream's lines is read back with the tests' own reader (test/support/tunnel/compact-lines.ts,
 * written from the document), and must give every byte back; the document's example share costs
 * what it says.
 */
import { describe, expect, test } from "bun:test";
import { TunnelError } from "../../../appliance/engine/transport/tunnel/frames.ts";
import { LineDecoder, LineEncoder } from "../../../appliance/engine/transport/tunnel/line-codec.ts";
import { TemplateReader } from "../../support/tunnel/compact-lines.ts";

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));
const latin1 = (b: Uint8Array) => Buffer.from(b).toString("latin1");

/** What crossed for `chunks` of one stream, as the frames' kinds and the reader's text of them. */
function cross(chunks: string[]) {
  const encoder = new LineEncoder();
  const reader = new TemplateReader();
  const decoder = new LineDecoder();
  let read = "";
  let decoded = "";
  const kinds: string[] = [];
  for (const chunk of chunks)
    for (const part of encoder.encode(bytes(chunk))) {
      if (part instanceof Uint8Array) {
        kinds.push("data");
        read += latin1(part);
        decoded += latin1(part);
      } else if (part.fields !== undefined) {
        kinds.push(`fields ${part.fields.length}`);
        read += reader.fields(1, part.slot, part.fields);
        decoded += latin1(decoder.fields(part.slot, part.fields));
      } else {
        kinds.push("line");
        read += reader.line(1, part.slot, part.line);
        decoder.line(part.slot, part.line);
        decoded += latin1(part.line);
      }
    }
  return { kinds, read, decoded };
}

const share = (job: string, en2: string, ntime: string, nonce: string, id: number) =>
  `{"params":["wal.rig7","${job}","${en2}","${ntime}","${nonce}"],"id":${id},"method":"mining.submit"}\n`;

describe("compact lines", () => {
  test("the document's example share crosses as a 9-byte fields body, and reads back as sent", () => {
    const lines = [
      share("1e", "00000029", "6553f2b2", "41f07b12", 117),
      share("1f", "0000002a", "6553f2d0", "9e1c33a0", 118),
    ];
    const c = cross(lines);
    expect(c.kinds).toEqual(["line", "fields 9"]);
    expect(c.read).toBe(lines.join(""));
    expect(lines[1]?.length).toBe(96);
  });

  test("a stream's answers and shares keep a template each, and each line after the first of its shape crosses as fields", () => {
    const answer = (id: number) => `{"id":${id},"result":true,"error":null}\n`;
    const lines = [
      answer(2),
      '{"id":null,"method":"mining.set_difficulty","params":[65536]}\n',
      answer(3),
      answer(4),
      '{"id":null,"method":"mining.set_difficulty","params":[131072]}\n',
      answer(5),
    ];
    const c = cross(lines);
    expect(c.kinds).toEqual(["line", "line", "fields 1", "fields 1", "fields 3", "fields 1"]);
    expect(c.read).toBe(lines.join(""));
    expect(c.decoded).toBe(c.read);
  });

  test("what no cut rebuilds byte for byte (-0), lines cut across chunks and long lines cross as data; 007 and uppercase hex are text of a template", () => {
    const chunks = [
      '{"id":007,"x":"ab"}\n',
      '{"id":-0,"x":"ab"}\n',
      '{"id":1,"x":"AB"}\n{"id":2,"x":',
      '"ab"}\n',
      `{"id":3,"blob":"${"x".repeat(600)}"}\n`,
      '{"id":4,"x":"ab"}\n',
      '{"id":5,"x":"ac"}\n',
      "no newline yet",
    ];
    const c = cross(chunks);
    expect(c.read).toBe(chunks.join(""));
    expect(c.decoded).toBe(c.read);
    expect(c.kinds).toEqual(["line", "data", "line", "data", "data", "data", "line", "fields 2", "data"]);
  });

  test("random lines of many shapes read back byte for byte, with the reader and the engine's decoder alike", () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const hexOf = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[rnd(16)]).join("");
    const value = (kind: number): string => {
      switch (kind) {
        case 0:
          return String(rnd(2) === 0 ? rnd(1000) : -rnd(1e9));
        case 1:
          return `"${hexOf(1 + rnd(12))}"`;
        case 2:
          return `"${hexOf(13 + rnd(70))}"`;
        case 3:
          return `"${hexOf(8).toUpperCase()}"`;
        case 4:
          return String(10 ** 15 + rnd(1000));
        case 5:
          return `0${rnd(10)}`;
        case 6:
          return "[ 1, 2 ]";
        case 7:
          return `"w.${hexOf(3)}"`;
        default:
          return String(rnd(2 ** 31) * 2 ** 20);
      }
    };
    // a shape names a kind of value per key; kinds 3 and 5-7 write text that differs from line to line
    const shapes = Array.from({ length: 3 }, () => Array.from({ length: 1 + rnd(5) }, () => rnd(9)));
    const lines = Array.from({ length: 3000 }, () => {
      const kinds = shapes[rnd(shapes.length)] as number[];
      return `{${kinds.map((kind, k) => `"k${k}":${value(kind)}`).join(",")}}\n`;
    });
    const c = cross(lines);
    expect(c.read).toBe(lines.join(""));
    expect(c.decoded).toBe(c.read);
    expect(c.kinds.filter((k) => k.startsWith("fields")).length).toBeGreaterThan(1000);
  });

  test("a peer's fields that do not fit their template break the tunnel", () => {
    const d = new LineDecoder();
    expect(() => d.fields(0, Uint8Array.of(2))).toThrow("fields for empty template 0");
    d.line(0, bytes('{"id":7,"x":"ff"}\n'));
    expect(() => d.fields(0, Uint8Array.of(2))).toThrow("fields cut short");
    expect(() => d.fields(0, Uint8Array.of(2, 0, 0))).toThrow("fields past the template's");
    // "ff" + 1 is past a 2-digit field
    expect(() => d.fields(0, Uint8Array.of(2, 2))).toThrow("a field out of its range");
    expect(() => d.fields(0, Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0))).toThrow(
      "a field's varint is too long",
    );
    expect(() => d.line(1, bytes('{"id":-0}\n'))).toThrow("a template line that is not one");
    // "ff" − 256 is below zero
    expect(() => d.fields(0, Uint8Array.of(2, 0xff, 0x03))).toThrow(TunnelError);
    expect(latin1(d.fields(0, Uint8Array.of(2, 0)))).toBe('{"id":8,"x":"ff"}\n');
  });
});
