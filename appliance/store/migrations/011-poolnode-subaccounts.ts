/**
 * Sub-accounts, their rebates and their withdrawals (docs/pool-node.md "Data model", "Reward scheme",
 * "Withdrawals"). A sub-account groups miner addresses; each address belongs to at most one, so that
 * no share of the fee is rebated twice. Its balance is not kept as a row: it is its rebate credits less
 * its withdrawals not refused, both few (one rebate line per sub-account per block), so there is no
 * second copy that could disagree.
 *
 * SQLite cannot change a table's CHECK or key in place, so the credits (a third kind, `rebate`, owned
 * by a sub-account) and the payout items (a line may pay a withdrawal rather than a miner's balance)
 * are rebuilt and their rows copied.
 */
export const poolNodeSubaccountsSchema = `
CREATE TABLE poolnode_subaccounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  -- the share of the fee its members' work paid that it gets back, to the millionth like the fee
  rebate REAL NOT NULL DEFAULT 0 CHECK (rebate >= 0 AND rebate <= 1),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE poolnode_subaccount_members (
  address TEXT PRIMARY KEY,
  subaccount_id INTEGER NOT NULL REFERENCES poolnode_subaccounts (id)
);
CREATE INDEX poolnode_subaccount_members_of ON poolnode_subaccount_members (subaccount_id);

CREATE TABLE poolnode_withdrawals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subaccount_id INTEGER NOT NULL REFERENCES poolnode_subaccounts (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  address TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('requested', 'approved', 'paid', 'refused')),
  -- the payout paying it now (approved) or that paid it; NULL again when that payout was never sent
  payout_id INTEGER REFERENCES poolnode_payouts (id),
  reason TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX poolnode_withdrawals_of ON poolnode_withdrawals (subaccount_id);
CREATE INDEX poolnode_withdrawals_due ON poolnode_withdrawals (state) WHERE state = 'approved';

CREATE TABLE poolnode_credits_v11 (
  block_hash TEXT NOT NULL REFERENCES poolnode_blocks (hash),
  -- a miner's address (pplns), the pool's (fee), '' for a sub-account's rebate
  address TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  kind TEXT NOT NULL CHECK (kind IN ('pplns', 'fee', 'rebate')),
  work REAL NOT NULL,
  subaccount_id INTEGER REFERENCES poolnode_subaccounts (id),
  CHECK ((kind = 'rebate') = (subaccount_id IS NOT NULL))
);
INSERT INTO poolnode_credits_v11 (block_hash, address, amount, kind, work)
  SELECT block_hash, address, amount, kind, work FROM poolnode_credits;
DROP TABLE poolnode_credits;
ALTER TABLE poolnode_credits_v11 RENAME TO poolnode_credits;
CREATE UNIQUE INDEX poolnode_credits_line ON poolnode_credits (block_hash, kind, address, IFNULL(subaccount_id, 0));
CREATE INDEX poolnode_credits_address ON poolnode_credits (address);
CREATE INDEX poolnode_credits_subaccount ON poolnode_credits (subaccount_id) WHERE subaccount_id IS NOT NULL;

CREATE TABLE poolnode_payout_items_v11 (
  payout_id INTEGER NOT NULL REFERENCES poolnode_payouts (id),
  address TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  -- NULL: a miner's balance; otherwise the withdrawal this line pays (its address may be a miner's too)
  withdrawal_id INTEGER REFERENCES poolnode_withdrawals (id)
);
INSERT INTO poolnode_payout_items_v11 (payout_id, address, amount)
  SELECT payout_id, address, amount FROM poolnode_payout_items;
DROP TABLE poolnode_payout_items;
ALTER TABLE poolnode_payout_items_v11 RENAME TO poolnode_payout_items;
CREATE UNIQUE INDEX poolnode_payout_items_balance ON poolnode_payout_items (payout_id, address) WHERE withdrawal_id IS NULL;
CREATE INDEX poolnode_payout_items_payout ON poolnode_payout_items (payout_id);
CREATE INDEX poolnode_payout_items_address ON poolnode_payout_items (address);
`;
