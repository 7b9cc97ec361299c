import { randomBytes, timingSafeEqual } from "node:crypto";

/** A challenge is answered within this; the dialog fetches it when the password is submitted. */
export const CHALLENGE_TTL_MS = 2 * 60_000;

/**
 * Single-use challenges for re-authentication. The console encrypts `challenge:password`, so a
 * ciphertext seen on the wire (a LAN console over plain HTTP) cannot be sent again to freshen a
 * stolen session: its challenge is gone after one use, and it was issued to one session only.
 */
export class ReauthChallenges {
  private readonly open = new Map<string, { nonce: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new challenge for the session; an earlier unanswered one stops counting. */
  issue(session: string): string {
    const nonce = randomBytes(18).toString("base64url");
    const now = this.now();
    for (const [s, c] of this.open) if (c.expires <= now) this.open.delete(s);
    this.open.set(session, { nonce, expires: now + CHALLENGE_TTL_MS });
    return nonce;
  }

  /** True once for the session's current challenge, within its time; it is used up either way. */
  take(session: string, nonce: string): boolean {
    const c = this.open.get(session);
    this.open.delete(session);
    if (!c || c.expires <= this.now()) return false;
    const a = Buffer.from(c.nonce);
    const b = Buffer.from(nonce);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
