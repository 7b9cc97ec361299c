/**
 * The RMS tunnel's frames and records against the examples of docs/rms-tunnel.md, which were
 * written by hand from its byte layouts: the encoder, the decoder and the document agree.
 */
import { describe, expect, test } from "bun:test";
import { deflateRawSync, inflateRawSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import {
  decodeFrames,
  encodeFrame,
  type Frame,
  TunnelError,
} from "../../../appliance/engine/transport/tunnel/frames.ts";
import { passwordProof, proofMatches } from "../../../appliance/engine/transport/tunnel/password.ts";
import { RecordReader, RecordWriter, variantOf } from "../../../appliance/engine/transport/tunnel/records.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));
const text = (s: string) => new Uint8Array(Buffer.from(s));
const RMS3 = variantOf(6);
if (RMS3 === null) throw new Error("no RMS3");
const RMS2 = variantOf(5);
if (RMS2 === null) throw new Error("no RMS2");

/** scrypt("farm 1", "pithead-rms-password-v1", N 16384, r 8, p 1, 32 bytes), as the document gives it */
const FARM_1_PROOF = "e16e52d9ed7848dae5b7995aa3af735ae0a392c455bd1c48127bd427ffab8cd1";

/** an RMS3 hello for a new tunnel with a 64 KiB window, as the document writes it */
const hello = (version: number, name: string): [string, Frame, string] => [
  name,
  { type: 0x20, version, variant: 6, tunnel: new Uint8Array(16), received: 0, window: 65536 },
  `20 0${version} 06 00000000000000000000000000000000 0000000000000000 00010000`,
];

const EXAMPLES: Array<[string, Frame, string]> = [
  hello(4, "hello, new RMS3 tunnel, window 64 KiB"),
  hello(3, "hello of a version-3 client, which a server still serves"),
  hello(2, "hello of a version-2 client, which a server still serves"),
  hello(1, "hello of a version-1 client, which a server still serves"),
  [
    "open stream 1 from 10.0.0.17",
    { type: 0x01, stream: 1, address: "10.0.0.17" },
    "01 00000001 09 31302e302e302e3137",
  ],
  ["data", { type: 0x02, stream: 1, bytes: text("{}\n") }, "02 00000001 00000003 7b7d0a"],
  [
    "broadcast",
    { type: 0x05, streams: [1, 2], bytes: text("ok\n") },
    "05 0002 00000001 00000002 00000003 6f6b0a",
  ],
  [
    'line, stream 1, slot 0, {"id":7}',
    { type: 0x06, stream: 1, slot: 0, bytes: text('{"id":7}\n') },
    "06 00000001 00 0009 7b226964223a377d0a",
  ],
  [
    "fields, stream 1, slot 0: id 8",
    { type: 0x07, stream: 1, slot: 0, body: unhex("02") },
    "07 00000001 00 01 02",
  ],
  ["credit", { type: 0x04, stream: 1, bytes: 16384 }, "04 00000001 00004000"],
  ["ack", { type: 0x10, received: 64 }, "10 0000000000000040"],
  [
    'client, password "farm 1", name "rack-7"',
    { type: 0x22, proof: unhex(FARM_1_PROOF), name: "rack-7" },
    `22 20 ${FARM_1_PROOF} 0006 7261636b2d37`,
  ],
  ["client, no password, no name", { type: 0x22, proof: null, name: "" }, "22 00 0000"],
  [
    "settings, one RMS3 port 4444 → local 3333",
    {
      type: 0x23,
      name: "rack-7",
      announcement: "hi",
      other: "",
      ports: [{ server: 4444, variant: 6, local: 3333, remark: "BTC-main" }],
    },
    "23 0006 7261636b2d37 0002 6869 0000 0001 115c 06 0d05 0008 4254432d6d61696e",
  ],
  ["batch, a window of 250 ms", { type: 0x25, ms: 250 }, "25 00fa"],
  [
    "refused",
    { type: 0x24, reason: "the RMS password is wrong" },
    "24 0019 74686520524d532070617373776f72642069732077726f6e67",
  ],
];

describe("tunnel frames as docs/rms-tunnel.md writes them", () => {
  for (const [name, frame, bytes] of EXAMPLES)
    test(name, () => {
      expect(hex(encodeFrame(frame))).toBe(hex(unhex(bytes)));
      expect(decodeFrames(unhex(bytes))).toEqual([frame]);
    });

  test("the password's proof is the document's scrypt", () => {
    expect(hex(passwordProof("farm 1"))).toBe(FARM_1_PROOF);
    expect(proofMatches("farm 1", unhex(FARM_1_PROOF))).toBe(true);
    expect(proofMatches("farm 2", unhex(FARM_1_PROOF))).toBe(false);
    expect(proofMatches("farm 1", null)).toBe(false);
  });

  test("a hello alone in a plain record", () => {
    const [, hello] = EXAMPLES[0] as [string, Frame, string];
    const record = new RecordWriter(RMS3, 2).record(encodeFrame(hello), false);
    expect(hex(record)).toBe(`000000001f${hex(encodeFrame(hello))}`);
  });

  test("a hello of a version this server does not know is refused", () => {
    expect(() => decodeFrames(unhex(`20 05 06 ${"00".repeat(16)} ${"00".repeat(8)} 00010000`))).toThrow(
      "unknown tunnel version 5",
    );
  });

  test("a batch window over 1 s is refused", () => {
    expect(decodeFrames(unhex("25 03e8"))).toEqual([{ type: 0x25, ms: 1000 }]);
    expect(() => decodeFrames(unhex("25 03e9"))).toThrow("a batch window of 1001 ms (at most 1000)");
  });

  test("frames cut short or of an unknown type are refused", () => {
    expect(() => decodeFrames(unhex("02 00000001 00000009 7b7d0a"))).toThrow(TunnelError);
    expect(() => decodeFrames(unhex("7f"))).toThrow("unknown frame type 127");
    expect(() => decodeFrames(unhex("22 05 0102030405 0000"))).toThrow("password proof of 5 bytes");
    expect(() => decodeFrames(unhex("07 00000001 04 01 02"))).toThrow("template slot 4 (a stream has 4)");
    expect(() => decodeFrames(unhex(`06 00000001 00 0201 ${"20".repeat(513)}`))).toThrow(
      "a template line of 513 bytes",
    );
  });

  test("records compressed against the history of the link come back as written, in order", () => {
    const writer = new RecordWriter(RMS3, 2);
    const reader = new RecordReader(RMS3);
    const lines = Array.from({ length: 50 }, (_, i) =>
      encodeFrame({
        type: 0x02,
        stream: 1,
        bytes: text(`{"id":${i},"method":"mining.submit","params":["wal.rig","1f"]}\n`),
      }),
    );
    const wire = lines.map((l) => writer.record(l));
    // the later records lean on the earlier ones: far smaller than the first
    expect((wire[49] as Uint8Array).length).toBeLessThan((wire[0] as Uint8Array).length / 2);
    const back = reader.push(Buffer.concat(wire));
    expect(back.map(hex)).toEqual(lines.map(hex));
  });

  for (const [variant, peerVersion] of [
    [RMS2, 2],
    [RMS3, 1],
    [RMS3, 2],
  ] as const)
    test(`${variant.name} to a version-${peerVersion} peer: over 300 KiB of records of every size, each compressed one's dictionary is the last 32 KiB of the bodies before it, and a reader fed odd-sized chunks gives every body back, its own copy`, () => {
      const writer = new RecordWriter(variant, peerVersion);
      const reader = new RecordReader(variant);
      // shares, jobs, a 40-KiB record, 1-byte-short-of-32-KiB and runs of tiny ones, deterministic
      const sizes = [90, 500, 40_000, 32_767, 1, 64, 70, 12_000, 20_000, 33_000, 65, 3_000];
      let seed = 7;
      const byte = () => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return 97 + ((seed >>> 16) % 8);
      };
      const bodies = Array.from({ length: 60 }, (_, i) =>
        Uint8Array.from({ length: sizes[i % sizes.length] as number }, byte),
      );
      const wire = bodies.map((b) => writer.record(b));
      // the document's rule, computed here from the bodies alone, both ways: the writer's records
      // decompress against it, and records compressed against it are what a reader reads back (an
      // RMS3 reader takes deflate and zstd records alike, whatever the version of its peer)
      let history = new Uint8Array(0);
      const kinds = new Set<number>();
      const theirs: Uint8Array[] = [];
      for (const [i, w] of wire.entries()) {
        const deflate = variant === RMS2 || i % 2 === 0;
        const packed = deflate
          ? deflateRawSync(bodies[i] as Uint8Array, { dictionary: history })
          : zstdCompressSync(bodies[i] as Uint8Array, { dictionary: history });
        const header = Buffer.alloc(5);
        header[0] = deflate ? 1 : 2;
        header.writeUInt32BE(packed.length, 1);
        theirs.push(Buffer.concat([header, packed]));
        const body = w.subarray(5);
        const kind = w[0] as number;
        kinds.add(kind);
        if (kind !== 0) {
          const options = { dictionary: history };
          const back = kind === 1 ? inflateRawSync(body, options) : zstdDecompressSync(body, options);
          expect(hex(back)).toBe(hex(bodies[i] as Uint8Array));
        }
        history = Uint8Array.from([...history, ...(bodies[i] as Uint8Array)].slice(-32 * 1024));
      }
      // a version-1 peer reads RMS3's records as zstd only; a version-2 one gets the shorter of both
      const expected = variant === RMS2 ? [0, 1] : peerVersion === 1 ? [0, 2] : [0, 1, 2];
      expect([...kinds].sort()).toEqual(expected);
      expect(wire.filter((w) => w[0] !== 0).length).toBeGreaterThan(40);
      for (const [r, stream] of [
        [reader, Buffer.concat(wire)],
        [new RecordReader(variant), Buffer.concat(theirs)],
      ] as const) {
        const back: Uint8Array[] = [];
        for (let at = 0; at < stream.length; at += 4_999) {
          const chunk = Buffer.from(stream.subarray(at, at + 4_999));
          back.push(...r.push(chunk));
          chunk.fill(0); // the socket reuses its buffer after the call
        }
        expect(back.map(hex)).toEqual(bodies.map(hex));
      }
    });
});

describe("what a share costs in a record", () => {
  const share = (i: number) =>
    encodeFrame({
      type: 0x02,
      stream: 1 + ((i * 37) % 500),
      bytes: text(
        `{"params":["wal.rig${(i * 37) % 500}","1a2b3c","${(0x1000 + i).toString(16)}","6553f100","${((i * 2654435761) >>> 0).toString(16).padStart(8, "0")}"],"id":${1000 + i},"method":"mining.submit"}\n`,
      ),
    });
  const answer = (i: number) =>
    encodeFrame({
      type: 0x02,
      stream: 1 + ((i * 37) % 500),
      bytes: text(`{"id":${1000 + i},"result":true,"error":null}\n`),
    });

  test("a share's answer alone in a record is sent compressed, at under half its size", () => {
    for (const variant of [RMS2, RMS3]) {
      const writer = new RecordWriter(variant, 2);
      let last: Uint8Array = new Uint8Array(0);
      for (let i = 0; i < 40; i++) last = writer.record(answer(i));
      expect(last[0]).not.toBe(0);
      expect(last.length).toBeLessThan(answer(39).length / 2);
    }
  });

  test("RMS3 deflates a share to a version-2 peer (zstd's frame costs more on a record this small), zstd to a version-1 peer", () => {
    const v2 = new RecordWriter(RMS3, 2);
    const v1 = new RecordWriter(RMS3, 1);
    let history = new Uint8Array(0);
    for (let i = 0; i < 60; i++) {
      const frames = share(i);
      const a = v2.record(frames);
      const b = v1.record(frames);
      if (i >= 20) {
        expect(a[0]).toBe(1);
        expect(b[0]).toBe(2);
        const zstd = zstdCompressSync(frames, { dictionary: history }).length;
        expect(a.length - 5).toBeLessThan(zstd);
      }
      history = Uint8Array.from([...history, ...frames].slice(-32 * 1024));
    }
  });

  test("RMS3 sends a job broadcast to many streams as zstd, shorter than deflate", () => {
    const writer = new RecordWriter(RMS3, 2);
    const streams = Array.from({ length: 1000 }, (_, i) => i + 1);
    let last: Uint8Array = new Uint8Array(0);
    let frames: Uint8Array = new Uint8Array(0);
    for (let j = 0; j < 4; j++) {
      frames = encodeFrame({
        type: 0x05,
        streams,
        bytes: text(
          `{"id":null,"method":"mining.notify","params":["${j}","${"ab".repeat(32)}","01","02",[],"20000000","1703a30c","6553f1${j}0",true]}\n`,
        ),
      });
      last = writer.record(frames);
    }
    expect(last[0]).toBe(2);
  });
});
