/**
 * AlphJob: one pool notify (one or more block templates, each for one chain) as the proxy hands it to
 * miners. Every template gets a job id unique on the port (sessions' ids collide), and the job keeps
 * the session that issued it, the difficulty and the extranonce in force then, so that a late share
 * goes to that session with the right prefix. Each miner keeps its last few jobs (miner-jobs.ts) with the
 * prefix it mined them under.
 */

import type { PoolJob } from "./messages.ts";
import { AlphMethod } from "./methods.ts";
import type { AlphUpstream } from "./upstream.ts";

/** The part of a lane a job needs. */
export interface JobOrigin {
  readonly id: number;
  /** "main" or a fee wallet key */
  readonly target: string;
  readonly shared: boolean;
}

/** One template of a job: the pool's id and chain, the id miners know it by. */
export interface JobEntry {
  readonly jobId: string;
  readonly pool: PoolJob;
}

let nextJobSeq = 0;

export class AlphJob {
  readonly entries: JobEntry[];
  private line: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: AlphUpstream,
    templates: readonly PoolJob[],
    /** share difficulty in force when the notify arrived */
    readonly difficulty: number,
    /** the pool's extranonce every nonce of this job starts with */
    readonly extranonce: string,
  ) {
    this.entries = templates.map((pool) => ({ jobId: (++nextJobSeq).toString(16), pool }));
  }

  entry(jobId: string): JobEntry | undefined {
    for (const e of this.entries) if (e.jobId === jobId) return e;
    return undefined;
  }

  /**
   * mining.notify with the pool's objects under port-unique ids. A shared lane's job goes to many
   * miners, so its line is built once and kept; a lane of one miner (Efficient mode) sends it once,
   * and keeping it would hold a line of a kilobyte or more per job and miner for the job's life.
   */
  notifyLine(): string {
    if (this.line !== null) return this.line;
    const params = this.entries.map((e) => ({ ...e.pool.fields, jobId: e.jobId }));
    const line = `${JSON.stringify({ id: null, method: AlphMethod.NOTIFY, params })}\n`;
    if (this.origin.shared) this.line = line;
    return line;
  }
}
