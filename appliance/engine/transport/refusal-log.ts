/**
 * The port log line for a refused transport handshake (SOCKS5 credentials, KENC key or frames),
 * written once per address and reason: a misconfigured miner retries every few seconds and a
 * scanner tries thousands of times, and either would bury the port log under the same line.
 */

/** how long an address stays quiet in the log after its refusal was written */
export const REFUSAL_QUIET_MS = 3600_000;
/** refusals remembered at most; past this the oldest are forgotten (and may be logged again) */
const MAX_ADDRESSES = 10_000;

export class RefusalLog {
  /** address and reason → when it was logged */
  private readonly logged = new Map<string, number>();

  constructor(
    /** names the transport in the line: "SOCKS5", "KENC" */
    private readonly transport: string,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs the refusal unless the same one of the same address was logged in the last hour. */
  refused(ip: string, reason: string): void {
    const now = this.now();
    const key = `${ip} ${reason}`;
    const at = this.logged.get(key);
    if (at !== undefined && now - at < REFUSAL_QUIET_MS) return;
    this.logged.delete(key);
    if (this.logged.size >= MAX_ADDRESSES) {
      // Map iteration is insertion order: the first key is the oldest entry
      const oldest = this.logged.keys().next().value;
      if (oldest !== undefined) this.logged.delete(oldest);
    }
    this.logged.set(key, now);
    this.log(`${this.transport} ${ip}: ${reason} (logged once an hour per address and reason)`);
  }
}
