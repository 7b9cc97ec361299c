import { AccountBackoff } from "./account-backoff.ts";

/**
 * Failed logins per client address: after MAX_FAILURES within WINDOW_MS the address waits. Wrong
 * passwords also count against the account (account-backoff.ts), whatever address they come from.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 10 * 60_000;
export const LOCK_MS = 5 * 60_000;

export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; first: number; lockedUntil: number }>();

  private readonly account: AccountBackoff;

  constructor(private readonly now: () => number = Date.now) {
    this.account = new AccountBackoff(now);
  }

  /** Seconds the address must still wait, 0 if it may try. */
  retryAfter(address: string): number {
    const e = this.failures.get(address);
    if (!e) return 0;
    const left = e.lockedUntil - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Seconds the account must still wait before a password is checked from the address, 0 if none. */
  accountRetryAfter(address: string): number {
    return this.account.retryAfter(address);
  }

  /** A wrong password: counts against the address and against the account. */
  failPassword(address: string): void {
    this.fail(address);
    this.account.fail();
  }

  /** A failure that guessed no password (a wrong captcha): counts against the address only. */
  fail(address: string): void {
    const now = this.now();
    let e = this.failures.get(address);
    if (!e || now - e.first > WINDOW_MS) e = { count: 0, first: now, lockedUntil: 0 };
    e.count++;
    if (e.count >= MAX_FAILURES) e.lockedUntil = now + LOCK_MS;
    this.failures.set(address, e);
    if (this.failures.size > 10_000) this.sweep(now);
  }

  succeed(address: string): void {
    this.failures.delete(address);
    this.account.succeed(address);
  }

  reset(): void {
    this.failures.clear();
    this.account.reset();
  }

  private sweep(now: number): void {
    for (const [a, e] of this.failures) {
      if (now - e.first > WINDOW_MS && e.lockedUntil <= now) this.failures.delete(a);
    }
  }
}
