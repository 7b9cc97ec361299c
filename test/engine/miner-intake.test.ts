/** MinerIntake (engine/stratum/miner-intake.ts) and SlotBytes: order, flood limits, queue bound, slot use, without sockets. */
import { describe, expect, test } from "bun:test";
import {
  type IntakeOwner,
  MAX_QUEUED_LINES,
  MinerIntake,
} from "../../appliance/engine/stratum/miner-intake.ts";
import { SLOTS_PER_SESSION, SlotBytes } from "../../appliance/engine/stratum/slot-bytes.ts";

/** Holds each line starting with "wait" until `answer` is called, as a session holds a login. */
class Recorder implements IntakeOwner {
  readonly handled: string[] = [];
  closedWith: string | null = null;
  isHolding = false;

  handleLine(line: string): void {
    this.handled.push(line);
    if (line.startsWith("wait")) this.isHolding = true;
  }
  close(reason: string): void {
    this.closedWith ??= reason;
  }
  get isClosed(): boolean {
    return this.closedWith !== null;
  }
}

describe("MinerIntake", () => {
  test("lines after one held for the pool wait for its answer, then run in order", () => {
    const r = new Recorder();
    const lines = new MinerIntake(r, 1000);
    lines.onLine("a");
    lines.onLine("wait-subscribe");
    lines.onLine("b");
    lines.onLine("wait-authorize");
    lines.onLine("c");
    expect(r.handled).toEqual(["a", "wait-subscribe"]);
    r.isHolding = false;
    lines.resume();
    // the second held line stops the queue again
    expect(r.handled).toEqual(["a", "wait-subscribe", "b", "wait-authorize"]);
    lines.onLine("d");
    r.isHolding = false;
    lines.resume();
    expect(r.handled).toEqual(["a", "wait-subscribe", "b", "wait-authorize", "c", "d"]);
    lines.onLine("e");
    expect(r.handled.at(-1)).toBe("e");
    expect(r.closedWith).toBeNull();
  });

  test("more lines in a second than allowed close the connection", () => {
    const r = new Recorder();
    const lines = new MinerIntake(r, 5);
    for (let i = 0; i < 6; i++) lines.onLine(`l${i}`);
    expect(r.handled).toHaveLength(5);
    expect(r.closedWith).toBe("flood: too many lines per second");
  });

  test("more than MAX_QUEUED_LINES behind a held request close the connection", () => {
    const r = new Recorder();
    const lines = new MinerIntake(r, 1_000_000);
    lines.onLine("wait");
    for (let i = 0; i <= MAX_QUEUED_LINES; i++) lines.onLine(`q${i}`);
    expect(r.handled).toEqual(["wait"]);
    expect(r.closedWith).toBe("flood: too many lines while waiting for the pool");
  });
});

describe("SlotBytes", () => {
  test("hands out every slot once before any twice, and reuses a released slot first", () => {
    const a = new SlotBytes();
    const first = Array.from({ length: SLOTS_PER_SESSION }, () => a.take());
    expect(new Set(first).size).toBe(SLOTS_PER_SESSION);
    a.give(7);
    expect(a.take()).toBe(7);
  });
});

describe("MinerIntake lines", () => {
  test("an oversize line closes the connection; CRLF and split chunks give whole lines", () => {
    const r = new Recorder();
    const intake = new MinerIntake(r, 1000);
    intake.push(new TextEncoder().encode('{"a":1}\r\n{"b"'));
    intake.push(new TextEncoder().encode(":2}\n"));
    expect(r.handled).toEqual(['{"a":1}', '{"b":2}']);
    intake.push(new Uint8Array(17 * 1024).fill(0x41));
    expect(r.closedWith).toBe("line too long");
  });
});
