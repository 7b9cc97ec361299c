import type { Database } from "bun:sqlite";

/** The certificate a remote showed and the operator confirmed (trust on first use). */
export interface RemotePin {
  /** SHA-256 of the DER, colon-separated upper-case hex (as X509Certificate.fingerprint256) */
  fingerprint: string;
  /** the certificate itself, PEM: the one trust anchor of every later connection to the remote */
  certificate: string;
}

export interface RemoteClient extends RemotePin {
  id: number;
  address: string;
  token: string;
  remark: string;
  /** when the operator confirmed the pin; "" = not pinned (registered before pinning existed) */
  pinned_at: string;
  /** when the remote last answered the fleet view; "" = never */
  last_seen: string;
  created_at: string;
  updated_at: string;
}

export type RemoteClientInput = Pick<RemoteClient, "address" | "token" | "remark">;

/** Other instances under group control: where they answer, the API token they accept, their pinned certificate. */
export class RemoteClientStore {
  constructor(private readonly db: Database) {}

  list(): RemoteClient[] {
    return this.db.query<RemoteClient, []>("SELECT * FROM remote_clients ORDER BY id").all();
  }

  get(id: number): RemoteClient | null {
    return this.db.query<RemoteClient, [number]>("SELECT * FROM remote_clients WHERE id = ?").get(id);
  }

  create(c: RemoteClientInput, pin: RemotePin): number {
    const now = new Date().toISOString();
    const res = this.db
      .query(
        `INSERT INTO remote_clients (address, token, remark, fingerprint, certificate, pinned_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.address, c.token, c.remark, pin.fingerprint, pin.certificate, now, now, now);
    return Number(res.lastInsertRowid);
  }

  /** The remote answered the fleet view at `at` (not a configuration change: updated_at stays). */
  seen(id: number, at: string): void {
    this.db.query("UPDATE remote_clients SET last_seen = ? WHERE id = ?").run(at, id);
  }

  update(id: number, c: RemoteClientInput): boolean {
    return (
      this.db
        .query("UPDATE remote_clients SET address = ?, token = ?, remark = ?, updated_at = ? WHERE id = ?")
        .run(c.address, c.token, c.remark, new Date().toISOString(), id).changes > 0
    );
  }

  /** Trusts this certificate (and only it) for the remote from now on. */
  pin(id: number, pin: RemotePin): boolean {
    const now = new Date().toISOString();
    return (
      this.db
        .query(
          "UPDATE remote_clients SET fingerprint = ?, certificate = ?, pinned_at = ?, updated_at = ? WHERE id = ?",
        )
        .run(pin.fingerprint, pin.certificate, now, now, id).changes > 0
    );
  }

  delete(id: number): boolean {
    return this.db.query("DELETE FROM remote_clients WHERE id = ?").run(id).changes > 0;
  }
}
