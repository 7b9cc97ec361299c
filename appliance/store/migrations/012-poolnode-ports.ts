/**
 * Pool-node ports beside the project's stratum port (docs/pool-node.md "Pool-node ports"): more
 * stratum listeners of the same pool, each with its own start difficulty, remark and connection cap.
 * The project's own port stays in the project setting, so a node without extra ports reads as before.
 *
 * A sub-account that is deleted keeps its row (credits and withdrawals refer to it and must still say
 * whose they were): it is marked, loses its members and gives up its name.
 */
export const poolNodePortsSchema = `
CREATE TABLE poolnode_ports (
  port INTEGER PRIMARY KEY CHECK (port BETWEEN 1 AND 65534),
  name TEXT NOT NULL DEFAULT '',
  -- the difficulty a miner starts at on this port; NULL: the project's
  difficulty REAL CHECK (difficulty IS NULL OR difficulty > 0),
  limit_connections INTEGER NOT NULL DEFAULT 60000 CHECK (limit_connections BETWEEN 1 AND 65535),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

ALTER TABLE poolnode_subaccounts ADD COLUMN deleted_at INTEGER;
`;
