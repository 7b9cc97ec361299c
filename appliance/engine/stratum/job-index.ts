/**
 * A port's live jobs by proxy job id, through the open index (engine/open-index.ts) rather than a
 * Map entry per job: a port issues a job per miner and pool job in most modes.
 */
import { FNV_START, mixHash, OpenIndex } from "../open-index.ts";

export class JobIndex<J extends { readonly jobId: string }> extends OpenIndex<J, string> {
  protected hashKey(id: string): number {
    return mixHash(FNV_START, id) >>> 0;
  }

  protected hashItem(job: J): number {
    return this.hashKey(job.jobId);
  }

  protected matches(job: J, id: string): boolean {
    return job.jobId === id;
  }
}
