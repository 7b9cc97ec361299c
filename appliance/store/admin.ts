import type { Database } from "bun:sqlite";

export interface AdminRow {
  username: string;
  password_hash: string;
  default_password: number;
}

/** The single admin account and its bearer tokens (stored as SHA-256 hashes, never in clear). */
export class AdminStore {
  constructor(private readonly db: Database) {}

  get(): AdminRow | null {
    return this.db
      .query<AdminRow, []>("SELECT username, password_hash, default_password FROM admin WHERE id = 1")
      .get();
  }

  set(username: string, passwordHash: string, isDefault: boolean): void {
    this.db
      .query(
        `INSERT INTO admin (id, username, password_hash, default_password, updated_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET username = excluded.username, password_hash = excluded.password_hash,
           default_password = excluded.default_password, updated_at = excluded.updated_at`,
      )
      .run(username, passwordHash, isDefault ? 1 : 0, new Date().toISOString());
  }

  addToken(tokenHash: string, expiresAt: number, address: string): void {
    this.db
      .query("INSERT INTO tokens (token_hash, created_at, expires_at, address) VALUES (?, ?, ?, ?)")
      .run(tokenHash, Date.now(), expiresAt, address);
  }

  tokenExpiry(tokenHash: string): number | null {
    const row = this.db
      .query<{ expires_at: number }, [string]>("SELECT expires_at FROM tokens WHERE token_hash = ?")
      .get(tokenHash);
    return row ? row.expires_at : null;
  }

  revokeToken(tokenHash: string): void {
    this.db.query("DELETE FROM tokens WHERE token_hash = ?").run(tokenHash);
  }

  revokeAllTokens(): void {
    this.db.query("DELETE FROM tokens").run();
  }

  purgeExpired(now: number): void {
    this.db.query("DELETE FROM tokens WHERE expires_at <= ?").run(now);
  }
}
