import type { Database } from "bun:sqlite";

/**
 * The pool node's extra stratum ports (migration 012, docs/pool-node.md "Pool-node ports"). The
 * project's own port is not here: it is part of the project.
 */
export interface PoolPort {
  port: number;
  /** the operator's remark */
  name: string;
  /** the start difficulty; null: the project's */
  difficulty: number | null;
  limit_connections: number;
  created_at: number;
  updated_at: number;
}

export type PoolPortInput = Pick<PoolPort, "port" | "name" | "difficulty" | "limit_connections">;

const COLUMNS = "port, name, difficulty, limit_connections, created_at, updated_at";

export class PoolPortStore {
  constructor(private readonly db: Database) {}

  list(): PoolPort[] {
    return this.db.query<PoolPort, []>(`SELECT ${COLUMNS} FROM poolnode_ports ORDER BY port`).all();
  }

  get(port: number): PoolPort | null {
    return this.db
      .query<PoolPort, [number]>(`SELECT ${COLUMNS} FROM poolnode_ports WHERE port = ?`)
      .get(port);
  }

  create(p: PoolPortInput, now: number): PoolPort {
    this.db
      .query(
        "INSERT INTO poolnode_ports (port, name, difficulty, limit_connections, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(p.port, p.name, p.difficulty, p.limit_connections, now, now);
    return this.get(p.port) as PoolPort;
  }

  update(p: PoolPortInput, now: number): PoolPort | null {
    this.db
      .query(
        "UPDATE poolnode_ports SET name = ?, difficulty = ?, limit_connections = ?, updated_at = ? WHERE port = ?",
      )
      .run(p.name, p.difficulty, p.limit_connections, now, p.port);
    return this.get(p.port);
  }

  delete(port: number): boolean {
    return this.db.query("DELETE FROM poolnode_ports WHERE port = ?").run(port).changes > 0;
  }
}
