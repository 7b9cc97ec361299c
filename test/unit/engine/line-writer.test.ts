import { describe, expect, test } from "bun:test";
import { joinedLine, LinePart } from "../../../appliance/engine/transport/joined-line.ts";
import {
  LineWriter,
  MAX_PENDING_BYTES,
  POOL_MAX_PENDING_BYTES,
} from "../../../appliance/engine/transport/line-writer.ts";

/** A peer whose kernel buffer takes nothing: what a peer that stopped reading looks like. */
function stalledSocket() {
  const s = { ended: false, write: (_d: string | Uint8Array) => 0, end: () => {} };
  s.end = () => {
    s.ended = true;
  };
  return s;
}

/** 256 Equihash shares of a loop turn: the lines a shared pool session sends at once. */
const burst = (w: LineWriter) => {
  const share = `${JSON.stringify({ id: 1, method: "mining.submit", params: ["w", "j", "t", "n", "a".repeat(2700)] })}\n`;
  for (let i = 0; i < 256; i++) w.write(share);
};

describe("line writer bounds", () => {
  test("a pool session takes a burst of 256 miners' large shares; a miner's socket that size is dropped", async () => {
    const pool = stalledSocket();
    burst(new LineWriter(pool, POOL_MAX_PENDING_BYTES));
    const miner = stalledSocket();
    burst(new LineWriter(miner));
    await new Promise((r) => setImmediate(r));
    expect(pool.ended).toBe(false);
    expect(miner.ended).toBe(true);
    expect(256 * 2800).toBeGreaterThan(MAX_PENDING_BYTES);
  });
});

/** A peer whose kernel buffer takes `room` bytes now, and everything once drained. */
function slowSocket(room: number) {
  const got: Buffer[] = [];
  const s = {
    room,
    write(d: string | Uint8Array): number {
      const b = Buffer.from(typeof d === "string" ? Buffer.from(d) : d);
      const n = Math.min(b.length, s.room);
      s.room -= n;
      got.push(b.subarray(0, n));
      return n;
    },
    end(): void {},
    text: () => Buffer.concat(got).toString(),
  };
  return s;
}

describe("joined lines", () => {
  const head = new LinePart('{"id":null,"method":"mining.notify","params":["');
  const rest = new LinePart(`","${"ab".repeat(9000)}",true]}\n`);
  const line = (id: string) => `${head.text}${id}${rest.text}`;

  test("a line longer than the join buffer, with a multi-byte id, arrives whole", () => {
    const s = slowSocket(Number.MAX_SAFE_INTEGER);
    new LineWriter(s).writeJoined(joinedLine().part(head).text("é€1").part(rest));
    expect(s.text()).toBe(line("é€1"));
  });

  test("what the kernel did not take is kept, though the next line reuses the join buffer", async () => {
    const s = slowSocket(100);
    const w = new LineWriter(s);
    w.writeJoined(joinedLine().part(head).text("1").part(rest));
    // another miner's line is joined in the same buffer before this socket drains
    const other = new LinePart(`","${"cd".repeat(9000)}",false]}\n`);
    new LineWriter(slowSocket(Number.MAX_SAFE_INTEGER)).writeJoined(
      joinedLine().part(head).text("2").part(other),
    );
    // a line joined while bytes wait goes behind them
    w.writeJoined(joinedLine().part(head).text("3").part(other));
    await new Promise((r) => setImmediate(r));
    s.room = Number.MAX_SAFE_INTEGER;
    w.drain();
    expect(s.text()).toBe(`${line("1")}${head.text}3${other.text}`);
  });
});
