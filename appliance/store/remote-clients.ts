import type { Database } from "bun:sqlite";

export interface RemoteClient {
  id: number;
  address: string;
  token: string;
  remark: string;
  created_at: string;
  updated_at: string;
}

export type RemoteClientInput = Pick<RemoteClient, "address" | "token" | "remark">;

/** Other instances under group control: where they answer and the API token they accept. */
export class RemoteClientStore {
  constructor(private readonly db: Database) {}

  list(): RemoteClient[] {
    return this.db.query<RemoteClient, []>("SELECT * FROM remote_clients ORDER BY id").all();
  }

  get(id: number): RemoteClient | null {
    return this.db.query<RemoteClient, [number]>("SELECT * FROM remote_clients WHERE id = ?").get(id);
  }

  create(c: RemoteClientInput): number {
    const now = new Date().toISOString();
    const res = this.db
      .query(
        "INSERT INTO remote_clients (address, token, remark, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(c.address, c.token, c.remark, now, now);
    return Number(res.lastInsertRowid);
  }

  update(id: number, c: RemoteClientInput): boolean {
    return (
      this.db
        .query("UPDATE remote_clients SET address = ?, token = ?, remark = ?, updated_at = ? WHERE id = ?")
        .run(c.address, c.token, c.remark, new Date().toISOString(), id).changes > 0
    );
  }

  delete(id: number): boolean {
    return this.db.query("DELETE FROM remote_clients WHERE id = ?").run(id).changes > 0;
  }
}
