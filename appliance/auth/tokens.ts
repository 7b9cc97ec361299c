import { createHash, randomBytes } from "node:crypto";
import type { AdminStore } from "../store/admin.ts";

export const TOKEN_TTL_MS = 12 * 3600_000;
export const REMEMBER_TTL_MS = 30 * 24 * 3600_000;
/** How long after a login or re-authentication a session may change pools, wallets or credentials. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Bearer tokens: 32 random bytes, kept only as a hash, expiring; "remember account" lasts longer. */
export class TokenService {
  constructor(
    private readonly store: AdminStore,
    private readonly now: () => number = Date.now,
  ) {}

  issue(remember: boolean, address: string): { token: string; expiresAt: number } {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = this.now() + (remember ? REMEMBER_TTL_MS : TOKEN_TTL_MS);
    this.store.purgeExpired(this.now());
    this.store.addToken(hashToken(token), expiresAt, address, this.now());
    return { token, expiresAt };
  }

  valid(token: string): boolean {
    const expiry = this.store.tokenExpiry(hashToken(token));
    return expiry !== null && expiry > this.now();
  }

  /**
   * A live session: its short id (for the audit log; not enough to use it) and whether its password
   * was proved within REAUTH_WINDOW_MS, which the routes that change pools, wallets and credentials need.
   */
  session(token: string): { id: string; fresh: boolean; authAgeMs: number } | null {
    const hash = hashToken(token);
    const row = this.store.tokenSession(hash);
    const now = this.now();
    if (row === null || row.expires_at <= now) return null;
    const authAgeMs = now - row.auth_at;
    return { id: hash.slice(0, 8), fresh: authAgeMs <= REAUTH_WINDOW_MS, authAgeMs };
  }

  /** The session's holder typed the password again. */
  reauthenticated(token: string): void {
    this.store.markAuthenticated(hashToken(token), this.now());
  }

  revoke(token: string): void {
    this.store.revokeToken(hashToken(token));
  }
}
