/**
 * Failed password checks against the admin account, whatever address they come from: the per-address
 * throttle (login-throttle.ts) gives every new source address fresh tries, so an attacker with many
 * addresses would otherwise guess at full speed. After FREE_FAILURES failures in a row, each further try
 * waits 2^n seconds after the last failure (n = 1 for the first try past the free ones, then 2, 3, …),
 * up to MAX_WAIT_S.
 */
export const FREE_FAILURES = 5;
/**
 * 15 minutes: long enough that guessing stays slow (at most 96 guesses a day once the cap is reached,
 * from any number of addresses), short enough that an attacker who keeps the account at the cap costs
 * the real admin at most a quarter of an hour, never a lockout; and the admin's own known addresses skip
 * the wait (see `trusted`).
 */
export const MAX_WAIT_S = 15 * 60;
/** An address that logged in successfully within this time is the admin's own, not an attacker's. */
export const TRUSTED_MS = 30 * 24 * 3600_000;
const MAX_TRUSTED = 64;

export class AccountBackoff {
  private failures = 0;
  private lockedUntil = 0;
  /** address → time of its last successful login, oldest first */
  private readonly trusted = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Seconds the account must still wait before a password is checked from `address`, 0 if it may try.
   * An address the admin logged in from recently is not held back, so an attacker who keeps the account
   * backed off does not lock the admin out of their usual machine.
   */
  retryAfter(address: string): number {
    const at = this.trusted.get(address);
    if (at !== undefined && this.now() - at <= TRUSTED_MS) return 0;
    const left = this.lockedUntil - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  fail(): void {
    this.failures++;
    const beyond = this.failures - FREE_FAILURES + 1;
    if (beyond > 0) this.lockedUntil = this.now() + Math.min(2 ** beyond, MAX_WAIT_S) * 1000;
  }

  /** The password was right: the count starts again and the address is remembered as the admin's. */
  succeed(address: string): void {
    this.failures = 0;
    this.lockedUntil = 0;
    this.trusted.delete(address);
    this.trusted.set(address, this.now());
    if (this.trusted.size > MAX_TRUSTED) {
      const oldest = this.trusted.keys().next().value;
      if (oldest !== undefined) this.trusted.delete(oldest);
    }
  }

  /** The operator cleared the lockouts (POST /api/failed/reset). */
  reset(): void {
    this.failures = 0;
    this.lockedUntil = 0;
  }
}
