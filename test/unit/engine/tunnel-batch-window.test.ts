/**
 * A tunnel end's batch window (docs/rms-tunnel.md, "Batch window"): small records wait for it, a
 * record with a job's worth of bytes does not. The records are read back with the document's reader.
 */
import { afterEach, expect, test } from "bun:test";
import { BATCH_VERSION, decodeFrames, FrameType } from "../../../appliance/engine/transport/tunnel/frames.ts";
import { RecordReader, RecordWriter, variantOf } from "../../../appliance/engine/transport/tunnel/records.ts";
import { DEFAULT_WINDOW, TunnelSession } from "../../../appliance/engine/transport/tunnel/session.ts";

const RMS3 = variantOf(6);
if (RMS3 === null) throw new Error("no RMS3");
const variant = RMS3;

const sessions: TunnelSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.end();
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A client end whose link keeps the data frames of each record it sends. */
function clientEnd(batchMs: number) {
  const records: string[][] = [];
  const reader = new RecordReader(variant);
  const session = new TunnelSession(
    variant,
    "client",
    { opened: () => null, dead: () => {} },
    DEFAULT_WINDOW,
    DEFAULT_WINDOW,
    { keepaliveMs: 60_000, deadMs: 120_000 },
    // lines as data frames, readable here (compact lines have tests of their own)
    BATCH_VERSION,
  );
  sessions.push(session);
  session.attach(
    {
      write: (b) => {
        for (const body of reader.push(typeof b === "string" ? Buffer.from(b) : b))
          records.push(
            decodeFrames(body).flatMap((f) =>
              f.type === FrameType.data ? [Buffer.from(f.bytes).toString()] : [],
            ),
          );
        return b.length;
      },
      end: () => {},
    },
    new RecordWriter(variant, 3),
    0,
    batchMs,
  );
  const sink = { deliver: (b: Uint8Array) => b.length, writable: () => {}, closed: () => {} };
  const streams = [session.open(sink, "10.0.0.1"), session.open(sink, "10.0.0.2")];
  /** a line on the first stream, a turn later one on the second, and the turn after that */
  const twoLines = async () => {
    session.write(streams[0] as number, Buffer.from("share a\n"));
    await turn();
    await turn();
    session.write(streams[1] as number, Buffer.from("share b\n"));
    await turn();
    await turn();
  };
  return { session, streams, records, twoLines };
}

test("lines written a turn apart wait for the window and leave in one record", async () => {
  const { records, twoLines } = clientEnd(100);
  await twoLines();
  expect(records.flat()).toEqual([]);
  await Bun.sleep(150);
  expect(records.filter((r) => r.length > 0)).toEqual([["share a\n", "share b\n"]]);
});

test("without a window each turn's lines leave at the end of the turn", async () => {
  const { records, twoLines } = clientEnd(0);
  await twoLines();
  expect(records.filter((r) => r.length > 0)).toEqual([["share a\n"], ["share b\n"]]);
});

test("a record that reaches 4 KiB of stream data leaves at the end of the turn, window or not", async () => {
  const { session, streams, records } = clientEnd(1000);
  const job = `${"j".repeat(4095)}\n`;
  session.write(streams[0] as number, Buffer.from("share a\n"));
  session.write(streams[1] as number, Buffer.from(job));
  await turn();
  await turn();
  expect(records.filter((r) => r.length > 0)).toEqual([["share a\n", job]]);
});
