/**
 * The pool node's ledger on a real SQLite file with the appliance's migrations: the PPLNS window over
 * the share log (cut inside its oldest share), the share log's batching, a block's credits written
 * once from the window frozen at the find, pruning, and the payout transactions with the balance
 * check. Expected values are worked out here from the shares the test logged.
 */

import type { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ShareLog } from "../../../appliance/poolnode/accounting/share-log.ts";
import { openDatabase } from "../../../appliance/store/db.ts";
import { PoolLedgerStore } from "../../../appliance/store/poolnode-ledger.ts";
import { tempDir } from "../../support/appliance.ts";

const D = 2 ** -16;
let dir: string;
let db: Database;
let store: PoolLedgerStore;

beforeEach(() => {
  dir = tempDir("pithead-ledger-");
  db = openDatabase(dir);
  store = new PoolLedgerStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = () => db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM poolnode_shares").get()?.n;

/** Logs shares of difficulty D in this order of addresses; returns their ids. */
function logShares(log: ShareLog, addresses: string[]): number[] {
  const ids = addresses.map((a) => log.append(`${a}.rig`, D, 200, 1000));
  log.flush();
  return ids;
}

function block(hash: string, lastShareId: number, reward = 5_000_000_000) {
  return {
    hash,
    height: 200,
    found_at: 1,
    address: "A",
    worker: "A.rig",
    reward,
    verdict: null,
    last_share_id: lastShareId,
  };
}

test("the window is the last N of work up to the block's share, its oldest share cut to the part inside", () => {
  const log = new ShareLog(store);
  const ids = logShares(log, ["A", "A", "B", "B", "B", "A"]);
  const last = ids[5] as number;
  // 4.5 units: the last four shares and half of the second
  expect(store.windowWork(last, 4.5 * D)).toEqual({
    first: ids[1] as number,
    work: [
      { address: "A", work: 1.5 * D, shares: 2 },
      { address: "B", work: 3 * D, shares: 3 },
    ],
  });
  // a window larger than the log holds all of it; one ending earlier stops at its share
  expect(store.windowWork(last, 100).work).toEqual([
    { address: "A", work: 3 * D, shares: 3 },
    { address: "B", work: 3 * D, shares: 3 },
  ]);
  expect(store.windowWork(ids[2] as number, 2 * D).work).toEqual([
    { address: "A", work: D, shares: 1 },
    { address: "B", work: D, shares: 1 },
  ]);
});

test("the share log writes nothing per share: it writes at flush, when a batch is full, and at stop", async () => {
  const log = new ShareLog(store, { flushMs: 60_000, batch: 3 });
  log.start();
  log.append("A.rig", D, 200, 1);
  log.append("A.rig", D, 200, 2);
  expect(count()).toBe(0);
  expect(log.buffered).toBe(2);
  // the third fills the batch: written at the next turn of the event loop, not inside append
  log.append("B.rig", D, 200, 3);
  expect(count()).toBe(0);
  await new Promise((r) => setImmediate(r));
  expect(count()).toBe(3);
  log.append("B.rig", D, 200, 4);
  log.stop();
  expect(count()).toBe(4);
  // numbering and the running work carry on from the log after a restart
  const again = new ShareLog(store);
  expect(again.append("C", D, 201, 5)).toBe(5);
  again.flush();
  expect(store.tip()).toEqual({ id: 5, cumWork: 5 * D });
});

test("a matured block is credited once, by the window and the fee frozen when it was found", () => {
  const log = new ShareLog(store);
  const ids = logShares(log, ["A", "A", "B", "B", "B", "A"]);
  store.recordBlock(block("h1", ids[5] as number), { window: 4.5 * D, fee: 0.01, poolAddress: "pool" });
  const round = () =>
    db
      .query("SELECT first_share_id AS first, total_work AS total, end_work AS end FROM poolnode_rounds")
      .all();
  expect(round()).toEqual([{ first: ids[1] as number, total: 4.5 * D, end: 6 * D }]);
  // later shares and a changed project do not move the frozen round
  logShares(log, ["B", "B"]);
  expect(store.openBlocks().map((b) => b.hash)).toEqual(["h1"]);
  const credits = store.creditBlock("h1", 2);
  const miners = 4_950_000_000;
  // A has 1.5 of 4.5 units, B 3 of 4.5
  expect(credits.map((c) => [c.kind, c.address, Number(c.amount)])).toEqual([
    ["pplns", "A", miners / 3],
    ["pplns", "B", (2 * miners) / 3],
    ["fee", "pool", 50_000_000],
  ]);
  expect(store.creditBlock("h1", 3)).toEqual([]);
  expect(store.balance("A")).toEqual({ address: "A", balance: miners / 3, paid: 0 });
  expect(store.balance("B").balance).toBe((2 * miners) / 3);
  // the fee stays in the wallet: no balance for the pool
  expect(store.balance("pool").balance).toBe(0);
  expect(store.openBlocks()).toEqual([]);
  expect(store.profit(10).total).toBe(50_000_000);
});

test("pruning keeps the shares of a window not yet credited and of the next block's window, and the round's work", () => {
  const log = new ShareLog(store);
  const ids = logShares(log, ["A", "A", "A", "B", "B"]);
  store.recordBlock(block("h1", ids[4] as number), { window: 3 * D, fee: 0, poolAddress: "pool" });
  logShares(log, ["C", "C", "C", "C", "C"]);
  // h1's window starts at the third share: the first two go
  expect(store.prune(2 * D)).toBe(2);
  store.creditBlock("h1", 1);
  // credited, only the next window (the last two shares) is needed
  expect(store.prune(2 * D)).toBe(6);
  expect(store.windowWork(store.tip().id, 2 * D).work).toEqual([{ address: "C", work: 2 * D, shares: 2 }]);
  // the current round still counts from h1's share, which is gone: the five C shares
  expect(store.workSinceLastBlock()).toBe(5 * D);
});

test("pruning in slices deletes the oldest shares first, at most a slice a call, and stops where a whole prune stops", () => {
  const log = new ShareLog(store);
  const ids = logShares(log, ["A", "A", "A", "A", "A", "A", "A", "B", "B", "B"]);
  // no block yet: only the window the next block would take (the last three shares) is kept
  expect(store.prune(3 * D, 3)).toBe(3);
  expect(store.windowWork(ids[9] as number, 10 * D).work).toEqual([
    { address: "A", work: 4 * D, shares: 4 },
    { address: "B", work: 3 * D, shares: 3 },
  ]);
  expect(store.prune(3 * D, 3)).toBe(3);
  expect(store.prune(3 * D, 3)).toBe(1);
  expect(store.prune(3 * D, 3)).toBe(0);
  expect(store.windowWork(ids[9] as number, 10 * D).work).toEqual([{ address: "B", work: 3 * D, shares: 3 }]);
});

test("a payout debits in the same transaction it is created in; undone, the balance is back; sent, it is paid", () => {
  const log = new ShareLog(store);
  const ids = logShares(log, ["A", "B", "B", "B"]);
  store.recordBlock(block("h1", ids[3] as number, 400_000_000), { window: 100, fee: 0, poolAddress: "pool" });
  // a window larger than the log holds all of its work
  expect(db.query("SELECT total_work AS total FROM poolnode_rounds").get()).toEqual({ total: 4 * D });
  store.creditBlock("h1", 1);
  expect([store.balance("A").balance, store.balance("B").balance]).toEqual([100_000_000, 300_000_000]);

  // A's 1 coin is below a 2-coin threshold
  const first = store.createPayout(200_000_000, "c1", "tip", 5);
  expect(first?.items).toEqual([{ address: "B", amount: 300_000_000, withdrawal_id: null }]);
  expect(first?.state).toBe("pending");
  expect(store.balance("B").balance).toBe(0);
  // comments are unique: the same comment twice is refused and debits nothing
  expect(() => store.createPayout(1, "c1", "tip", 6)).toThrow();
  expect(store.balance("A").balance).toBe(100_000_000);

  store.undoPayout(first?.id as number, "never sent", 7);
  expect(store.balance("B")).toEqual({ address: "B", balance: 300_000_000, paid: 0 });
  // undoing twice gives nothing more back
  store.undoPayout(first?.id as number, "again", 8);
  expect(store.balance("B").balance).toBe(300_000_000);

  const second = store.createPayout(100_000_000, "c2", "tip", 9);
  expect(second?.total).toBe(400_000_000);
  store.markSent(second?.id as number, "ab".repeat(32), 10);
  store.markSent(second?.id as number, "ab".repeat(32), 11);
  expect(store.balance("A")).toEqual({ address: "A", balance: 0, paid: 100_000_000 });
  expect(store.balance("B")).toEqual({ address: "B", balance: 0, paid: 300_000_000 });
  expect(store.createPayout(1, "c3", "tip", 12)).toBeNull();
  expect(store.checkBalances()).toEqual([]);

  // a row that no longer agrees with the credits and payouts is put right
  db.query("UPDATE poolnode_balances SET balance = 5 WHERE address = 'A'").run();
  expect(store.checkBalances()).toEqual(["A"]);
  expect(store.balance("A")).toEqual({ address: "A", balance: 0, paid: 100_000_000 });
});
