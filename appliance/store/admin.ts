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

  /** A new session; `authAt` is when its password was proved (the login). */
  addToken(tokenHash: string, expiresAt: number, address: string, authAt: number): void {
    this.db
      .query(
        "INSERT INTO tokens (token_hash, created_at, expires_at, address, auth_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(tokenHash, Date.now(), expiresAt, address, authAt);
  }

  tokenSession(tokenHash: string): { expires_at: number; auth_at: number } | null {
    return this.db
      .query<{ expires_at: number; auth_at: number }, [string]>(
        "SELECT expires_at, auth_at FROM tokens WHERE token_hash = ?",
      )
      .get(tokenHash);
  }

  /** The session proved the password again (re-authentication). */
  markAuthenticated(tokenHash: string, at: number): void {
    this.db.query("UPDATE tokens SET auth_at = ? WHERE token_hash = ?").run(at, tokenHash);
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
