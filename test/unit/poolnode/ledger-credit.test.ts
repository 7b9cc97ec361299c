/**
 * A matured block credited as the pool node does it — its window summed in the worker thread on its
 * own connection to the same SQLite file, the credits written here — gives exactly the credits of the
 * same window summed on this thread, and only once however often the tracker reports the block mature.
 */
import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { PoolLedger } from "../../../appliance/poolnode/accounting/ledger.ts";
import type { Credit } from "../../../appliance/poolnode/accounting/pplns.ts";
import { ShareLog } from "../../../appliance/poolnode/accounting/share-log.ts";
import { openDatabase } from "../../../appliance/store/db.ts";
import { PoolLedgerStore } from "../../../appliance/store/poolnode-ledger.ts";
import { tempDir } from "../../support/appliance.ts";

let dir: string;
let db: Database;
let store: PoolLedgerStore;

beforeEach(() => {
  dir = tempDir("pithead-credit-");
  db = openDatabase(dir);
  store = new PoolLedgerStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (cs: Credit[]) => cs.map((c) => `${c.kind} ${c.address} ${c.amount} ${c.work}`).sort();

test("the worker's sum credits what the inline sum does, once", async () => {
  const log = new ShareLog(store);
  // vardiff-like difficulties, so the sums are not trivially equal
  let last = 0;
  for (let i = 0; i < 3000; i++) last = log.append(`m${i % 7}.rig`, 1 + (i % 13) / 8, 100, 1000);
  log.flush();
  const rules = { window: 2000.25, fee: 0.015, poolAddress: "pool" };
  for (const hash of ["inline", "worker"])
    store.recordBlock(
      {
        hash,
        height: 100,
        found_at: 1,
        address: "m0",
        worker: "m0.rig",
        reward: 5_000_000_000,
        verdict: null,
        last_share_id: last,
      },
      rules,
    );
  const inline = store.creditBlock("inline", 1);
  const ledger = new PoolLedger(
    store,
    () => rules,
    () => {},
  );
  // the tracker reporting the block mature again while its credit is under way credits nothing more
  const [first, second] = await Promise.all([ledger.credit("worker"), ledger.credit("worker")]);
  expect(lines(first)).toEqual(lines(inline));
  expect(first.length).toBe(8);
  expect(second).toEqual([]);
  expect(await ledger.credit("worker")).toEqual([]);
  expect(
    db
      .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM poolnode_credits WHERE block_hash = ?")
      .get("worker")?.n,
  ).toBe(8);
  await ledger.stop();
});

test("one prune goes on slice after slice, a turn of the event loop each, until nothing is left to drop", async () => {
  const log = new ShareLog(store);
  let last = 0;
  for (let i = 0; i < 12_345; i++) last = log.append(`m${i % 3}.rig`, 1, 100, 1000);
  log.flush();
  const kept = () => store.windowWork(last, 1e9).work.reduce((n, w) => n + w.shares, 0);
  // the minute's timer does not come in this test: the one prune called must carry on by itself
  const rules = () => ({ window: 100, fee: 0, poolAddress: "pool" });
  const ledger = new PoolLedger(store, rules, () => {}, { pruneMs: 600_000 });
  ledger.start();
  try {
    ledger.prune();
    // a slice at once, the other two at the following turns of the loop
    expect(kept()).toBe(12_345 - 5_000);
    while (kept() > 100) await Bun.sleep(5);
    expect(kept()).toBe(100);
  } finally {
    await ledger.stop();
  }
});
