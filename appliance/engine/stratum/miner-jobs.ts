/**
 * The jobs one miner was sent, in the families whose sessions keep them per miner (Ethereum, Kaspa,
 * Alephium, the prefix families): each with the nonce prefix in force when it went out, which its
 * shares must start with, and for the families that check duplicates here the shares sent for it.
 * A share for a job no longer listed answers "stale".
 *
 * Which jobs stay: a miner moved between pools still sends shares for the job it left for a moment,
 * and a pool keeps a few jobs of one block, so the newest two always stay, and an older one as long as
 * the job after it went out less than LATE_SHARE_GRACE_MS ago, at most JOBS_PER_MINER. Without the
 * grace rule every miner held eight jobs (with their duplicate sets) whatever the pool's pace; a pool
 * sending a job every 10–30 s left six of them that no share could still be for. CryptoNote keeps its
 * jobs per lane rather than per miner (cryptonote/job.ts) and prunes them by the same rule.
 */

/** A job whose id shares name (ES1, Kaspa, KawPow, Equihash). */
export const hasId = (job: { readonly jobId: string }, jobId: string): boolean => job.jobId === jobId;

/** A job as one miner received it. */
export interface SentJob<J> {
  readonly job: J;
  readonly prefix: string;
  /** the shares sent for it, for the duplicate check (the families that make it here) */
  shares: Set<string> | null;
  /** Date.now() when it went out */
  readonly sentAt: number;
}

const JOBS_PER_MINER = 8;
const JOBS_ALWAYS_KEPT = 2;
/**
 * A share found on a job just before the next one arrives reaches the proxy a round trip later;
 * farms on metered or satellite links see round trips near a second, so the grace is several.
 */
const LATE_SHARE_GRACE_MS = 5_000;
/** Shares remembered per job and miner for the duplicate check (a bound, not an expected count). */
const SHARES_PER_JOB = 4096;

/**
 * Whether the oldest of `sent` (oldest first) may go: never one of the newest two; then when there
 * are more than `max`, or when the job after it went out longer than the grace ago.
 */
export function oldestMayGo(sent: readonly { readonly sentAt: number }[], now: number, max: number): boolean {
  return (
    sent.length > JOBS_ALWAYS_KEPT &&
    (sent.length > max || (sent[1] as { readonly sentAt: number }).sentAt <= now - LATE_SHARE_GRACE_MS)
  );
}

export class MinerJobs<J> {
  private readonly sent: SentJob<J>[] = [];

  add(job: J, prefix: string): void {
    const now = Date.now();
    this.sent.push({ job, prefix, shares: null, sentAt: now });
    while (oldestMayGo(this.sent, now, JOBS_PER_MINER)) this.sent.shift();
  }

  /**
   * The newest job `matches` takes for `key`. The key is passed rather than closed over so that the
   * share path, which looks a job up for every share, allocates no function per share.
   */
  find<K>(key: K, matches: (job: J, key: K) => boolean): SentJob<J> | undefined {
    for (let i = this.sent.length - 1; i >= 0; i--) {
      const s = this.sent[i] as SentJob<J>;
      if (matches(s.job, key)) return s;
    }
    return undefined;
  }

  /** Records a share's key for the job; false when the miner already sent it. */
  firstUse(s: SentJob<J>, key: string): boolean {
    s.shares ??= new Set();
    if (s.shares.has(key)) return false;
    if (s.shares.size < SHARES_PER_JOB) s.shares.add(key);
    return true;
  }

  get last(): SentJob<J> | undefined {
    return this.sent[this.sent.length - 1];
  }

  get size(): number {
    return this.sent.length;
  }

  clear(): void {
    this.sent.length = 0;
  }
}
