import { describe, expect, test } from "bun:test";
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
