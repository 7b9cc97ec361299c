import { createHash, randomBytes } from "node:crypto";
import type { AdminStore } from "../store/admin.ts";

export const TOKEN_TTL_MS = 12 * 3600_000;
export const REMEMBER_TTL_MS = 30 * 24 * 3600_000;

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
    this.store.addToken(hashToken(token), expiresAt, address);
    return { token, expiresAt };
  }

  valid(token: string): boolean {
    const expiry = this.store.tokenExpiry(hashToken(token));
    return expiry !== null && expiry > this.now();
  }

  revoke(token: string): void {
    this.store.revokeToken(hashToken(token));
  }
}
