import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { migrate } from "../../../appliance/store/db.ts";
import { MIGRATIONS } from "../../../appliance/store/migrations/index.ts";
import { RatioStore } from "../../../appliance/store/ratios.ts";

/** A database as the release before migration 6 left it. */
function beforeDeviceKeys(): Database {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  for (const m of MIGRATIONS.filter((m) => m.version < 6)) {
    db.exec(m.sql);
    db.query("INSERT INTO schema_version VALUES (?, 'then')").run(m.version);
  }
  return db;
}

test("migration 6 keeps wallet overrides and drops device rows keyed by a past run's device ids", () => {
  const db = beforeDeviceKeys();
  const old = db.query(
    "INSERT INTO ratio_overrides (port_id, wallet, worker, ratio, updated_at) VALUES (?, ?, ?, ?, 'then')",
  );
  old.run(1, "bc1qminer", "", 0.05);
  old.run(1, "", "1-1", 0.3);
  migrate(db);
  expect(new RatioStore(db).all()).toEqual(
    new Map([[1, [{ wallet: "bc1qminer", worker: null, ratio: 0.05 }]]]),
  );
});

test("a device override is the wallet and worker name, apart from the wallet's own even with no worker name", () => {
  const db = new Database(":memory:");
  migrate(db);
  const store = new RatioStore(db);
  store.set(1, { wallet: "w", worker: null, ratio: 0.1 });
  store.set(1, { wallet: "w", worker: "", ratio: 0.2 });
  store.set(1, { wallet: "w", worker: "rig", ratio: 0.3 });
  store.set(1, { wallet: "w", worker: "rig", ratio: 0.4 });
  expect([store.get(1, "w", null), store.get(1, "w", ""), store.get(1, "w", "rig")]).toEqual([0.1, 0.2, 0.4]);
  expect(store.clear(1, "w", "")).toBe(true);
  expect(store.list(1)).toEqual([
    { wallet: "w", worker: null, ratio: 0.1 },
    { wallet: "w", worker: "rig", ratio: 0.4 },
  ]);
});
