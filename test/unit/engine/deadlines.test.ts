import { expect, test } from "bun:test";
import { Deadlines, type Expiring } from "../../../appliance/engine/deadlines.ts";

class Session implements Expiring {
  deadlineIndex = -1;
  deadlineAt = 0;
  expired = 0;
  constructor(private readonly onExpire: () => void = () => {}) {}
  onDeadline(): void {
    this.expired++;
    this.onExpire();
  }
}

const until = async (cond: () => boolean) => {
  while (!cond()) await Bun.sleep(10);
};

test("a session expires once after its deadline; one whose deadline is cleared or moved on does not", async () => {
  const d = new Deadlines();
  const due = new Session();
  const cleared = new Session();
  const moved = new Session();
  d.set(due, 50);
  d.set(cleared, 50);
  d.set(moved, 50);
  d.clear(cleared);
  d.set(moved, 60_000); // a job arrived: the "no job" deadline moves on
  await until(() => due.expired > 0);
  await Bun.sleep(600); // two more sweeps
  expect([due.expired, cleared.expired, moved.expired]).toEqual([1, 0, 0]);
  expect(d.size).toBe(1);
  d.clear(moved);
  expect(d.size).toBe(0);
});

test("sessions expiring in one sweep each expire, also when one's expiry clears another's deadline", async () => {
  const d = new Deadlines();
  const others = Array.from({ length: 5 }, () => new Session());
  // the first to expire closes a session that is due as well (a lane closing its retiring session)
  const closer = new Session(() => d.clear(others[0] as Session));
  for (const s of others) d.set(s, 30);
  d.set(closer, 30);
  await until(() => d.size === 0);
  expect(closer.expired).toBe(1);
  expect(others.slice(1).map((s) => s.expired)).toEqual([1, 1, 1, 1]);
  expect(others[0]?.expired).toBeLessThanOrEqual(1);
});

test("a deadline set again after it expired expires again", async () => {
  const d = new Deadlines();
  const s = new Session();
  d.set(s, 20);
  await until(() => s.expired === 1);
  d.set(s, 20);
  await until(() => s.expired === 2);
  expect(d.size).toBe(0);
});
