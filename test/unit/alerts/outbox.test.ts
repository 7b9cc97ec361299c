import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { AlertOutboxStore } from "../../../appliance/store/alert-outbox.ts";
import { openDatabase } from "../../../appliance/store/db.ts";
import { tempDir } from "../../support/appliance.ts";

const dir = tempDir();
const db = openDatabase(dir);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the outbox keeps the newest messages up to its bound, in order, and holds a failed one until its retry time", () => {
  const outbox = new AlertOutboxStore<{ n: number }>(db, 3);
  const dropped = [1, 2, 3, 4, 5].map((n) => outbox.push("webhook", { n }, 1_000));
  expect(dropped).toEqual([0, 0, 0, 1, 1]);
  expect(outbox.due(1_000, 10).map((i) => i.message.n)).toEqual([3, 4, 5]);
  const [first] = outbox.due(1_000, 1);
  outbox.failed(first?.id ?? 0, 5_000, "connection refused");
  expect(outbox.due(4_999, 10).map((i) => i.message.n)).toEqual([4, 5]);
  expect(outbox.nextDue()).toBe(1_000);
  expect(outbox.pending()).toEqual({ count: 3, lastError: "connection refused" });
  for (const i of outbox.due(4_999, 10)) outbox.remove(i.id);
  expect(outbox.nextDue()).toBe(5_000);
  expect(outbox.due(5_000, 10).map((i) => [i.message.n, i.attempts])).toEqual([[3, 1]]);
});
