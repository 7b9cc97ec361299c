import type { Database } from "bun:sqlite";

/**
 * Pool-node ports across group control (migration 013): on a member, the proxy ports a pool node
 * made (the group-control token may delete these and no other); on the node, where each of its
 * extra ports was pushed.
 */
export interface PortPush {
  port: number;
  remote_id: number;
  member_port_id: number;
}

export class PoolGroupPortStore {
  constructor(private readonly db: Database) {}

  markMemberPort(portId: number, now: number): void {
    this.db
      .query("INSERT OR IGNORE INTO poolnode_member_ports (port_id, created_at) VALUES (?, ?)")
      .run(portId, now);
  }

  isMemberPort(portId: number): boolean {
    return (
      this.db
        .query<{ n: number }, [number]>("SELECT 1 AS n FROM poolnode_member_ports WHERE port_id = ?")
        .get(portId) !== null
    );
  }

  recordPush(p: PortPush): void {
    this.db
      .query("INSERT OR REPLACE INTO poolnode_port_pushes (port, remote_id, member_port_id) VALUES (?, ?, ?)")
      .run(p.port, p.remote_id, p.member_port_id);
  }

  pushesOf(port: number): PortPush[] {
    return this.db
      .query<PortPush, [number]>(
        "SELECT port, remote_id, member_port_id FROM poolnode_port_pushes WHERE port = ? ORDER BY remote_id",
      )
      .all(port);
  }
}
