/**
 * The pool node's ledger (docs/pool-node.md "Data model"): the share log, the blocks the pool found,
 * the PPLNS window frozen for each, the credits written when a block matures, the balances they add
 * up to, and the payouts that debit them. Amounts are integers in the coin's base unit; work is a sum
 * of share difficulties (REAL: vardiff difficulties are not integers).
 *
 * The project stays the `poolnode.project` setting it has been since the first slice (one JSON row);
 * sub-accounts and withdrawals come with their own migration when they are built.
 */
export const poolNodeLedgerSchema = `
CREATE TABLE poolnode_shares (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  address TEXT NOT NULL,
  worker TEXT NOT NULL,
  difficulty REAL NOT NULL,
  -- all work logged up to and including this share: a window of N ending at share L is the shares
  -- whose cum_work exceeds cum_work(L) − N, found through this index instead of summing backwards
  cum_work REAL NOT NULL,
  height INTEGER NOT NULL
);
CREATE INDEX poolnode_shares_cum ON poolnode_shares (cum_work);
-- hashrate and workers look at the last minutes
CREATE INDEX poolnode_shares_at ON poolnode_shares (at);

CREATE TABLE poolnode_blocks (
  hash TEXT PRIMARY KEY,
  height INTEGER NOT NULL,
  found_at INTEGER NOT NULL,
  address TEXT NOT NULL,
  worker TEXT NOT NULL,
  reward INTEGER NOT NULL,
  verdict TEXT,
  status TEXT NOT NULL CHECK (status IN ('submitted', 'rejected', 'immature', 'mature', 'orphaned')),
  confirmations INTEGER,
  last_share_id INTEGER NOT NULL,
  credited_at INTEGER
);
CREATE INDEX poolnode_blocks_open ON poolnode_blocks (status) WHERE credited_at IS NULL;

CREATE TABLE poolnode_rounds (
  block_hash TEXT PRIMARY KEY REFERENCES poolnode_blocks (hash),
  first_share_id INTEGER NOT NULL,
  last_share_id INTEGER NOT NULL,
  -- the window N in force when the block was found: a later change of the project does not move it
  window REAL NOT NULL,
  total_work REAL NOT NULL,
  -- cum_work of the block's share: the current round's work is counted from it, pruned or not
  end_work REAL NOT NULL,
  -- and the fee and the fee line's address, so that credits at maturity follow the rules at the find
  fee REAL NOT NULL,
  pool_address TEXT NOT NULL
);

CREATE TABLE poolnode_credits (
  block_hash TEXT NOT NULL REFERENCES poolnode_blocks (hash),
  address TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  kind TEXT NOT NULL CHECK (kind IN ('pplns', 'fee')),
  work REAL NOT NULL,
  PRIMARY KEY (block_hash, address, kind)
);
CREATE INDEX poolnode_credits_address ON poolnode_credits (address);

CREATE TABLE poolnode_balances (
  address TEXT PRIMARY KEY,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  paid INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE poolnode_payouts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'confirmed', 'failed')),
  comment TEXT NOT NULL UNIQUE,
  since_block TEXT NOT NULL,
  txid TEXT,
  total INTEGER NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  updated_at INTEGER NOT NULL
);
CREATE INDEX poolnode_payouts_open ON poolnode_payouts (state) WHERE state IN ('pending', 'sent');

CREATE TABLE poolnode_payout_items (
  payout_id INTEGER NOT NULL REFERENCES poolnode_payouts (id),
  address TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  PRIMARY KEY (payout_id, address)
);
CREATE INDEX poolnode_payout_items_address ON poolnode_payout_items (address);
`;
