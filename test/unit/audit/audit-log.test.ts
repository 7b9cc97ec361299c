import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { GENESIS } from "../../../appliance/audit/chain.ts";
import { diff, REDACTED } from "../../../appliance/audit/diff.ts";
import { AUDIT_KEEP_MS, type AuditInput, AuditLog } from "../../../appliance/store/audit-log.ts";
import { migrate } from "../../../appliance/store/db.ts";

const DAY = 24 * 3600_000;

function open(clock: { now: number }) {
  const db = new Database(":memory:", { strict: true });
  migrate(db);
  return { db, log: new AuditLog(db, () => clock.now) };
}

const entry = (object: string): AuditInput => ({
  credential: "admin",
  session: "ab12cd34",
  address: "10.0.0.5",
  action: "POST /api/wallet/1",
  object,
  outcome: "changed",
  changes: [{ field: "addr", old: "bc1qold", new: "bc1qnew" }],
});

describe("audit log: hash chain", () => {
  test("entries chain from the genesis value and verify; the triggers refuse edits and deletions", () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { db, log } = open(clock);
    for (const o of ["a", "b", "c"]) log.append(entry(o));
    const rows = log.list({ limit: 10, offset: 0 }).items.reverse();
    expect(rows[0]?.prev_hash).toBe(GENESIS);
    expect(rows[1]?.prev_hash).toBe(rows[0]?.hash as string);
    expect(log.verify()).toEqual({ ok: true, entries: 3, head: rows[2]?.hash as string });
    expect(() => db.run("UPDATE audit_log SET object = 'x' WHERE id = 2")).toThrow(/append-only/);
    expect(() => db.run("DELETE FROM audit_log WHERE id = 1")).toThrow(/append-only/);
  });

  test("an edited row (triggers dropped, as an attacker with the file would) is named by verify", () => {
    const { db, log } = open({ now: Date.UTC(2026, 0, 1) });
    for (const o of ["a", "b", "c"]) log.append(entry(o));
    db.run("DROP TRIGGER audit_log_no_update");
    db.run(
      `UPDATE audit_log SET changes = '[{"field":"addr","old":"bc1qold","new":"bc1qmine"}]' WHERE id = 2`,
    );
    expect(log.verify()).toMatchObject({ ok: false, brokenId: 2 });
  });

  test("a removed row breaks the chain at the row after it", () => {
    const { db, log } = open({ now: Date.UTC(2026, 0, 1) });
    for (const o of ["a", "b", "c"]) log.append(entry(o));
    db.run("DROP TRIGGER audit_log_prune_only");
    db.run("DELETE FROM audit_log WHERE id = 2");
    expect(log.verify()).toMatchObject({ ok: false, brokenId: 3 });
  });
});

describe("audit log: kept by age, never by count", () => {
  test("entries older than 90 days are pruned, the anchor keeps the rest verifiable, ids go on", () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { log } = open(clock);
    log.append(entry("old"));
    clock.now += DAY;
    log.append(entry("kept"));
    clock.now += AUDIT_KEEP_MS - DAY / 2;
    // the next append prunes (at most once an hour): "old" is past 90 days, "kept" is not
    log.append(entry("new"));
    const items = log.list({ limit: 10, offset: 0 }).items;
    expect(items.map((e) => [e.id, e.object])).toEqual([
      [3, "new"],
      [2, "kept"],
    ]);
    expect(log.anchor().throughId).toBe(1);
    expect(log.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  test("thousands of entries within the window are all kept", () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { log } = open(clock);
    for (let i = 0; i < 6000; i++) log.append(entry(`n${i}`));
    expect(log.list({ limit: 1, offset: 0 }).total).toBe(6000);
    expect(log.list({ q: "n0", limit: 5, offset: 0 }).items.map((e) => e.object)).toEqual(["n0"]);
  });

  test("an anchor over entries younger than 90 days means rows were cut, not pruned", () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { db, log } = open(clock);
    for (const o of ["a", "b", "c"]) log.append(entry(o));
    const first = log.list({ limit: 10, offset: 0 }).items.at(-1);
    db.query("INSERT INTO audit_anchor (id, through_id, through_at, hash) VALUES (1, 1, ?, ?)").run(
      first?.at ?? 0,
      first?.hash ?? "",
    );
    db.run("DELETE FROM audit_log WHERE id = 1");
    expect(log.verify()).toMatchObject({ ok: false, brokenId: 1 });
  });
});

describe("audit diff", () => {
  test("nested fields by path, bookkeeping ignored, secrets redacted", () => {
    const before = {
      id: 1,
      port: 4000,
      updated_at: "x",
      wallets: [{ id: 7, addr: "a", ratio: 0.02 }],
      setting: { sd: "" },
    };
    const after = {
      id: 1,
      port: 4000,
      updated_at: "y",
      wallets: [{ id: 8, addr: "b", ratio: 0.02 }],
      setting: { sd: "1" },
    };
    expect(diff(before, after)).toEqual([
      { field: "wallets[0].addr", old: "a", new: "b" },
      { field: "setting.sd", old: "", new: "1" },
    ]);
    expect(diff({ token: "s1", push_key: "p" }, { token: "s2", push_key: "p" })).toEqual([
      { field: "token", old: REDACTED, new: REDACTED },
    ]);
    expect(diff(null, { addr: "a" })).toEqual([{ field: "addr", old: null, new: "a" }]);
  });
});
