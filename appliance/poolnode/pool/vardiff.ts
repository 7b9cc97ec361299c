/**
 * Per-connection difficulty that follows the miner's speed, aiming at one share every
 * `targetSeconds`: after a few shares, or after a few target periods without enough of them, the
 * difficulty is scaled by target ÷ observed seconds per share (at most ×4 or ÷4 at a time, within
 * min..max). A new difficulty applies to the jobs sent after it (protocols.md §A); the stratum server
 * keeps which difficulty each job was sent with.
 */
export interface VardiffOptions {
  targetSeconds: number;
  min: number;
  max: number;
}

/** Shares that make a retarget worth it (fewer: the observed rate is mostly noise). */
const RETARGET_SHARES = 8;
/** Target periods after which the difficulty is checked even with fewer shares (a miner too slow for it). */
const RETARGET_PERIODS = 3;
const MAX_STEP = 4;
/** Changes smaller than this are not worth a set_difficulty and a job. */
const MIN_CHANGE = 0.1;

export class Vardiff {
  current: number;
  private windowStart: number;
  private shares = 0;

  constructor(
    start: number,
    private readonly opts: VardiffOptions | null,
    now: number,
  ) {
    this.current = start;
    this.windowStart = now;
  }

  /** An accepted share; returns the new difficulty when it changes. */
  onShare(now: number): number | null {
    this.shares++;
    return this.check(now);
  }

  /** Retargets a miner whose shares stopped coming (called periodically). */
  check(now: number): number | null {
    if (this.opts === null) return null;
    const seconds = (now - this.windowStart) / 1000;
    if (this.shares < RETARGET_SHARES && seconds < this.opts.targetSeconds * RETARGET_PERIODS) return null;
    // no share at all counts as one, so a miner far too slow still gets a lower difficulty
    const perShare = seconds / Math.max(1, this.shares);
    const ratio = Math.min(
      MAX_STEP,
      Math.max(1 / MAX_STEP, this.opts.targetSeconds / Math.max(perShare, 1e-3)),
    );
    const next = Math.min(this.opts.max, Math.max(this.opts.min, this.current * ratio));
    this.windowStart = now;
    this.shares = 0;
    if (Math.abs(next / this.current - 1) < MIN_CHANGE) return null;
    this.current = next;
    return next;
  }
}
