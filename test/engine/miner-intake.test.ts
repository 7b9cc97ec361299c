/** MinerIntake (engine/stratum/miner-intake.ts) and SlotBytes: order, flood limits, queue bound, slot use, without sockets. */
import { describe, expect, test } from "bun:test";
import {
  type IntakeOwner,
  MAX_QUEUED_LINES,
  MinerIntake,
} from "../../appliance/engine/stratum/miner-intake.ts";
import { SLOTS_PER_SESSION, SlotBytes } from "../../appliance/engine/stratum/slot-bytes.ts";

class Recorder implements IntakeOwner {
  readonly handled: string[] = [];
  closedWith: string | null = null;
  /** lines whose handling awaits this promise */
  gate: Promise<void> | null = null;

  handleLine(line: string): Promise<void> | undefined {
    this.handled.push(line);
    return line.startsWith("wait") && this.gate !== null ? this.gate : undefined;
  }
  close(reason: string): void {
    this.closedWith ??= reason;
  }
  get isClosed(): boolean {
    return this.closedWith !== null;
  }
}

describe("MinerIntake", () => {
  test("lines after one that awaits the pool wait for it, then run in order", async () => {
    const r = new Recorder();
    let open!: () => void;
    r.gate = new Promise((resolve) => {
      open = resolve;
    });
    const lines = new MinerIntake(r, 1000);
    lines.onLine("a");
    lines.onLine("wait-subscribe");
    lines.onLine("b");
    lines.onLine("c");
    expect(r.handled).toEqual(["a", "wait-subscribe"]);
    open();
    await r.gate;
    await Promise.resolve();
    expect(r.handled).toEqual(["a", "wait-subscribe", "b", "c"]);
    expect(r.closedWith).toBeNull();
  });

  test("more lines in a second than allowed close the connection", () => {
    const r = new Recorder();
    const lines = new MinerIntake(r, 5);
    for (let i = 0; i < 6; i++) lines.onLine(`l${i}`);
    expect(r.handled).toHaveLength(5);
    expect(r.closedWith).toBe("flood: too many lines per second");
  });

  test("more than MAX_QUEUED_LINES behind a pending request close the connection", () => {
    const r = new Recorder();
    r.gate = new Promise(() => {});
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
