/** OrderedLines (engine/stratum/ordered-lines.ts): order, flood limits and queue bound, without sockets. */
import { describe, expect, test } from "bun:test";
import {
  MAX_QUEUED_LINES,
  type OrderedLineHandler,
  OrderedLines,
} from "../../appliance/engine/stratum/ordered-lines.ts";
import { SLOTS, SlotAllocator } from "../../appliance/engine/stratum/slot-allocator.ts";

class Recorder implements OrderedLineHandler {
  readonly handled: string[] = [];
  closedWith: string | null = null;
  /** lines whose handling awaits this promise */
  gate: Promise<void> | null = null;

  handle(line: string): Promise<void> | undefined {
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

describe("OrderedLines", () => {
  test("lines after one that awaits the pool wait for it, then run in order", async () => {
    const r = new Recorder();
    let open!: () => void;
    r.gate = new Promise((resolve) => {
      open = resolve;
    });
    const lines = new OrderedLines(r, 1000);
    lines.push("a");
    lines.push("wait-subscribe");
    lines.push("b");
    lines.push("c");
    expect(r.handled).toEqual(["a", "wait-subscribe"]);
    open();
    await r.gate;
    await Promise.resolve();
    expect(r.handled).toEqual(["a", "wait-subscribe", "b", "c"]);
    expect(r.closedWith).toBeNull();
  });

  test("more lines in a second than allowed close the connection", () => {
    const r = new Recorder();
    const lines = new OrderedLines(r, 5);
    for (let i = 0; i < 6; i++) lines.push(`l${i}`);
    expect(r.handled).toHaveLength(5);
    expect(r.closedWith).toBe("flood: too many lines per second");
  });

  test("more than MAX_QUEUED_LINES behind a pending request close the connection", () => {
    const r = new Recorder();
    r.gate = new Promise(() => {});
    const lines = new OrderedLines(r, 1_000_000);
    lines.push("wait");
    for (let i = 0; i <= MAX_QUEUED_LINES; i++) lines.push(`q${i}`);
    expect(r.handled).toEqual(["wait"]);
    expect(r.closedWith).toBe("flood: too many lines while waiting for the pool");
  });
});

describe("SlotAllocator", () => {
  test("hands out every slot once before any twice, and reuses a released slot first", () => {
    const a = new SlotAllocator();
    const first = Array.from({ length: SLOTS }, () => a.alloc());
    expect(new Set(first).size).toBe(SLOTS);
    a.release(7);
    expect(a.alloc()).toBe(7);
  });
});
