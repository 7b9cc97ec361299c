/**
 * Pool-node ports pushed to group members (docs/pool-node.md "Group control"). On a member: which of
 * its proxy ports a pool node made, the only ones the group-control token may delete. On the node:
 * where each extra port was pushed, so that removing it removes the members' ports too.
 */
export const poolNodeGroupPortsSchema = `
CREATE TABLE poolnode_member_ports (
  port_id INTEGER PRIMARY KEY REFERENCES ports (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);

CREATE TABLE poolnode_port_pushes (
  port INTEGER NOT NULL REFERENCES poolnode_ports (port) ON DELETE CASCADE,
  remote_id INTEGER NOT NULL REFERENCES remote_clients (id) ON DELETE CASCADE,
  -- the proxy port's id on the member
  member_port_id INTEGER NOT NULL,
  PRIMARY KEY (port, remote_id)
);
`;
