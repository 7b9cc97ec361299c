/**
 * What a miner's socket receives when a session's line is written through its LineWriter: the
 * joined lines of a miner's own session go out as bytes at once, a shared lane's through the batch.
 */
import { expect } from "bun:test";
import { LineWriter } from "../../../appliance/engine/transport/line-writer.ts";

/**
 * The one line `write` sends, after `before` (a line already waiting in the writer's batch, which
 * must go out first).
 */
export function writtenLine(write: (out: LineWriter) => void, before = ""): string {
  const got: string[] = [];
  const socket = {
    write(data: string | Uint8Array): number {
      got.push(typeof data === "string" ? data : Buffer.from(data).toString());
      return typeof data === "string" ? Buffer.byteLength(data) : data.length;
    },
    end(): void {},
  };
  const out = new LineWriter(socket);
  if (before !== "") out.write(before);
  write(out);
  out.flush();
  const all = got.join("");
  expect(all.startsWith(before)).toBe(true);
  const line = all.slice(before.length);
  expect(line.indexOf("\n")).toBe(line.length - 1);
  return line;
}
