/**
 * Sub-accounts on a real SQLite file with the appliance's migrations: migration 11 keeps a v10
 * ledger's credits and payout lines, a matured block credits a sub-account's rebate from the shares
 * its members logged, a withdrawal is held at once (a second one beyond the balance is refused),
 * refused it is given back, approved it becomes a line of the next payout — undone with the payout
 * if the wallet never sent it, paid with it otherwise — and a miner's own balance is never touched
 * by a withdrawal to the same address. Amounts are worked out here from the shares logged.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ShareLog } from "../../../appliance/poolnode/accounting/share-log.ts";
import { migrate, openDatabase } from "../../../appliance/store/db.ts";
import { MIGRATIONS } from "../../../appliance/store/migrations/index.ts";
import { PoolLedgerStore } from "../../../appliance/store/poolnode-ledger.ts";
import { PoolSubaccountStore, SubaccountError } from "../../../appliance/store/poolnode-subaccounts.ts";
import { tempDir } from "../../support/appliance.ts";

const D = 2 ** -16;
const REWARD = 5_000_000_000;
let dir: string;
let db: Database;
let ledger: PoolLedgerStore;
let subs: PoolSubaccountStore;

beforeEach(() => {
  dir = tempDir("pithead-subaccounts-");
  db = openDatabase(dir);
  ledger = new PoolLedgerStore(db);
  subs = new PoolSubaccountStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof SubaccountError) return e.refusal;
    throw e;
  }
  throw new Error("not refused");
};

/** A block found by the last of these shares (each of difficulty D), 1 % fee, credited at maturity. */
function matureBlock(hash: string, addresses: string[]): void {
  const log = new ShareLog(ledger);
  const ids = addresses.map((a) => log.append(`${a}.rig`, D, 200, 1000));
  log.flush();
  ledger.recordBlock(
    {
      hash,
      height: 200,
      found_at: 1,
      address: "A",
      worker: "A.rig",
      reward: REWARD,
      verdict: null,
      last_share_id: ids[ids.length - 1] as number,
    },
    { window: 1000, fee: 0.01, poolAddress: "pool" },
  );
  ledger.creditBlock(hash, 2);
}

test("migration 11 keeps a v10 ledger's credits and payout lines", () => {
  const old = new Database(":memory:");
  old.exec("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  for (const m of MIGRATIONS.filter((m) => m.version <= 10)) {
    old.exec(m.sql);
    old.query("INSERT INTO schema_version VALUES (?, 'then')").run(m.version);
  }
  old.exec(`INSERT INTO poolnode_blocks (hash, height, found_at, address, worker, reward, status, last_share_id)
            VALUES ('h', 1, 1, 'A', 'A.rig', 100, 'mature', 1);
            INSERT INTO poolnode_credits VALUES ('h', 'A', 99, 'pplns', 1), ('h', 'pool', 1, 'fee', 0);
            INSERT INTO poolnode_payouts (created_at, state, comment, since_block, total, updated_at) VALUES (1, 'sent', 'c', 'b', 99, 1);
            INSERT INTO poolnode_payout_items VALUES (1, 'A', 99);`);
  migrate(old);
  expect(
    old.query("SELECT address, amount, kind, subaccount_id FROM poolnode_credits ORDER BY kind").all(),
  ).toEqual([
    { address: "pool", amount: 1, kind: "fee", subaccount_id: null },
    { address: "A", amount: 99, kind: "pplns", subaccount_id: null },
  ]);
  expect(new PoolLedgerStore(old).payout(1)?.items).toEqual([
    { address: "A", amount: 99, withdrawal_id: null },
  ]);
  old.close();
});

test("a matured block credits a sub-account its ratio of the fee its members' work paid, and the fee line less", () => {
  const s = subs.save({ name: "farm", addresses: ["A", "C"], rebate: 0.25 }, 1);
  // A 2 shares and C 1 of 5: they paid 3/5 of the 50,000,000 fee; a quarter of that comes back
  matureBlock("h1", ["A", "B", "C", "B", "A"]);
  const rebate = (50_000_000 * 3) / 5 / 4;
  const [reward] = ledger.rewards(10);
  expect(reward?.credits).toEqual(
    expect.arrayContaining([
      { address: "", amount: rebate, kind: "rebate", work: 3 * D, subaccount_id: s.id },
      { address: "pool", amount: 50_000_000 - rebate, kind: "fee", work: 0, subaccount_id: null },
    ]),
  );
  expect(reward?.credits.reduce((sum, c) => sum + c.amount, 0)).toBe(REWARD);
  expect(subs.get(s.id)).toEqual(expect.objectContaining({ balance: rebate, held: 0, paid: 0 }));
  expect(ledger.profit(10).total).toBe(50_000_000 - rebate);
  // the miners' balances are their PPLNS lines alone, and agree with the balance check
  expect(ledger.balance("A").balance).toBe((4_950_000_000 * 2) / 5);
  expect(ledger.checkBalances()).toEqual([]);
});

test("an address belongs to one sub-account; names are unique; members and rebate change in place", () => {
  const s = subs.save({ name: "farm", addresses: ["A", "B"], rebate: 0.1 }, 1);
  expect(refusal(() => subs.save({ name: "other", addresses: ["C", "B"], rebate: 0 }, 2))).toEqual({
    kind: "member_elsewhere",
    address: "B",
  });
  expect(subs.list().map((x) => x.name)).toEqual(["farm"]);
  expect(refusal(() => subs.save({ name: "farm", addresses: ["C"], rebate: 0 }, 2))).toEqual({
    kind: "name_taken",
  });
  const edited = subs.save({ id: s.id, name: "farm 2", addresses: ["B", "C"], rebate: 0.2 }, 3);
  expect(edited).toEqual(
    expect.objectContaining({ id: s.id, name: "farm 2", addresses: ["B", "C"], rebate: 0.2 }),
  );
  // A is free again; an edit without a rebate keeps it, a new one without starts at 0
  expect(subs.save({ id: s.id, name: "farm 2", addresses: ["B", "C"] }, 4).rebate).toBe(0.2);
  expect(subs.save({ name: "other", addresses: ["A"] }, 4).rebate).toBe(0);
  expect(subs.setRebate(s.id, 0.5, 5).rebate).toBe(0.5);
  expect(refusal(() => subs.setRebate(999, 0.5, 5))).toEqual({ kind: "no_subaccount" });
});

test("a withdrawal is held at once, refused it is given back, approved it is one line of the next payout", () => {
  const s = subs.save({ name: "farm", addresses: ["A"], rebate: 1 }, 1);
  matureBlock("h1", ["A", "B"]);
  const rebate = 25_000_000; // all of the half of the 50,000,000 fee that A's one share in two paid
  expect(subs.get(s.id)?.balance).toBe(rebate);

  const first = subs.requestWithdrawal(s.id, 20_000_000, "A", 2);
  expect(first.state).toBe("requested");
  expect(subs.get(s.id)).toEqual(expect.objectContaining({ balance: 5_000_000, held: 20_000_000 }));
  // the hold counts: what is left is 5,000,000
  expect(refusal(() => subs.requestWithdrawal(s.id, 5_000_001, "A", 3))).toEqual({
    kind: "over_balance",
    balance: 5_000_000,
  });
  const second = subs.requestWithdrawal(s.id, 5_000_000, "W", 3);
  expect(subs.get(s.id)?.balance).toBe(0);
  // refused, its amount may be asked for again; a decided withdrawal is not decided twice
  subs.decide(second.id, "refused", "not now", 4);
  expect(subs.get(s.id)).toEqual(expect.objectContaining({ balance: 5_000_000, held: 20_000_000 }));
  expect(refusal(() => subs.decide(second.id, "approved", "", 5))).toEqual({
    kind: "not_requested",
    state: "refused",
  });

  // a requested withdrawal is not paid; approved, it joins the miners' balances in one payout
  expect(ledger.createPayout(1e12, "c0", "tip", 5)).toBeNull();
  subs.decide(first.id, "approved", "", 6);
  const p = ledger.createPayout(1, "c1", "tip", 7);
  const minerA = (4_950_000_000 * 1) / 2;
  expect(p?.items).toEqual([
    { address: "A", amount: minerA, withdrawal_id: null },
    { address: "A", amount: 20_000_000, withdrawal_id: first.id },
    { address: "B", amount: 4_950_000_000 - minerA, withdrawal_id: null },
  ]);
  expect(p?.total).toBe(4_950_000_000 + 20_000_000);
  expect(subs.withdrawal(first.id)).toEqual(expect.objectContaining({ state: "approved", payout_id: p?.id }));

  // never sent: the miners get their balances back, the withdrawal stays approved and held, with
  // the wallet's reason until a payout pays it
  ledger.undoPayout(p?.id as number, "wallet locked", 8);
  expect(ledger.balance("A").balance).toBe(minerA);
  expect(subs.withdrawal(first.id)).toEqual(
    expect.objectContaining({ state: "approved", payout_id: null, reason: "wallet locked" }),
  );
  expect(subs.get(s.id)).toEqual(expect.objectContaining({ balance: 5_000_000, held: 20_000_000 }));

  // the balances alone (what a cycle sends when the wallet refused them with the withdrawal)
  const alone = ledger.createPayout(1, "c1b", "tip", 8, false);
  expect(alone?.items.map((i) => i.withdrawal_id)).toEqual([null, null]);
  expect(subs.withdrawal(first.id)?.payout_id).toBeNull();
  ledger.undoPayout(alone?.id as number, "wallet locked", 8);

  // the next payout takes it again; sent, it is paid, and A's own paid is its balance alone
  const again = ledger.createPayout(1, "c2", "tip", 9);
  ledger.markSent(again?.id as number, "cd".repeat(32), 10);
  expect(subs.withdrawal(first.id)).toEqual(
    expect.objectContaining({ state: "paid", payout_id: again?.id, txid: "cd".repeat(32), reason: "" }),
  );
  expect(subs.get(s.id)).toEqual(expect.objectContaining({ balance: 5_000_000, held: 0, paid: 20_000_000 }));
  expect(ledger.balance("A")).toEqual({ address: "A", balance: 0, paid: minerA });
  expect(ledger.checkBalances()).toEqual([]);
  expect(ledger.createPayout(1, "c3", "tip", 11)).toBeNull();
  expect(subs.withdrawals(10).map((w) => [w.id, w.state])).toEqual([
    [second.id, "refused"],
    [first.id, "paid"],
  ]);
});
