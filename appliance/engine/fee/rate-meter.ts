/**
 * A miner's hashrate in work per second, from the work of the shares it submits: an exponentially
 * decaying sum over the decaying length of time it has been watched. At a share, the rate is taken
 * from the shares before it: for a Poisson stream (n − 1)/tₙ is unbiased where n/tₙ reads high,
 * and the fee scheduler must not overrate the miners it sends to a fee wallet.
 */
const MEMORY_MS = 10 * 60_000;

export class RateMeter {
  private sum = 0;
  private at: number;
  readonly since: number;
  rate = 0;

  constructor(now: number) {
    this.since = now;
    this.at = now;
  }

  /** Records one submitted share; returns the updated rate. */
  addShare(work: number, now: number): number {
    if (now > this.at) {
      this.sum *= Math.exp((this.at - now) / MEMORY_MS);
      this.at = now;
    }
    const watched = MEMORY_MS * (1 - Math.exp((this.since - now) / MEMORY_MS));
    this.rate = watched > 0 ? (this.sum * 1000) / watched : 0;
    this.sum += work;
    return this.rate;
  }
}
