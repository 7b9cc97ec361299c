/**
 * The jobs miners may still submit to. A clean job (new previous block) makes every earlier job stale;
 * jobs on the same previous block (refreshed transactions, fresh work after a miner's difficulty
 * changed) stay valid, the oldest dropped beyond a bound, so shares in flight are not lost.
 * After the pool finds a block, every job on the old tip is stale at once, before the daemon's
 * next template arrives: a second block on the same parent would only be an orphan race.
 */
import type { PoolJob } from "./job.ts";

/** One job per retarget of each miner can pile up within a block; far more than miners keep in flight. */
const MAX_JOBS = 1024;

export class JobBook {
  private readonly jobs = new Map<string, PoolJob>();
  private latest: PoolJob | null = null;
  private nextId = 1;

  newId(): string {
    return (this.nextId++).toString(16);
  }

  get current(): PoolJob | null {
    return this.latest;
  }

  add(job: PoolJob, clean: boolean): void {
    if (clean) this.jobs.clear();
    this.jobs.set(job.id, job);
    if (this.jobs.size > MAX_JOBS) {
      const oldest = this.jobs.keys().next().value as string;
      this.jobs.delete(oldest);
    }
    this.latest = job;
  }

  get(id: string): PoolJob | undefined {
    return this.jobs.get(id);
  }

  /** Every job built on this previous block becomes stale. */
  retireParent(previousBlockHash: string): void {
    for (const [id, job] of this.jobs)
      if (job.template.previousblockhash === previousBlockHash) this.jobs.delete(id);
    if (this.latest?.template.previousblockhash === previousBlockHash) this.latest = null;
  }
}
