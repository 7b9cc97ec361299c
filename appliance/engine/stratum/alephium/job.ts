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

const NOTIFY_HEAD = `{"id":null,"method":"${AlphMethod.NOTIFY}","params":[`;
const TEMPLATE_OPEN = '{"jobId":"';
const NEXT_TEMPLATE_OPEN = ',{"jobId":"';
const NOTIFY_END = "]}\n";

let nextJobSeq = 0;

export class AlphJob {
  /** the id miners know each template by, in the templates' order */
  readonly ids: string[];
  private line: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: AlphUpstream,
    /** the pool's templates, shared by every session given the same notify line */
    readonly templates: readonly PoolJob[],
    /** share difficulty in force when the notify arrived */
    readonly difficulty: number,
    /** the pool's extranonce every nonce of this job starts with */
    readonly extranonce: string,
  ) {
    const ids = new Array<string>(templates.length);
    for (let i = 0; i < templates.length; i++) ids[i] = (++nextJobSeq).toString(16);
    this.ids = ids;
  }

  /** The template miners know by `jobId`. */
  template(jobId: string): PoolJob | undefined {
    const i = this.ids.indexOf(jobId);
    return i < 0 ? undefined : this.templates[i];
  }

  /**
   * mining.notify with the pool's objects under port-unique ids. A shared lane's job goes to many
   * miners, so its line is built once and kept; a lane of one miner (Efficient mode) sends it once,
   * and keeping it would hold a line of a kilobyte or more per job and miner for the job's life.
   * Joined from each template's JSON made at parse (ids are hex, so none needs escaping): a copy of
   * every template's object and their JSON were a dozen objects per miner and job.
   */
  notifyLine(): string {
    if (this.line !== null) return this.line;
    const n = this.ids.length;
    const parts = new Array<string>(n * 3 + 2);
    parts[0] = NOTIFY_HEAD;
    for (let i = 0; i < n; i++) {
      parts[i * 3 + 1] = i === 0 ? TEMPLATE_OPEN : NEXT_TEMPLATE_OPEN;
      parts[i * 3 + 2] = this.ids[i] as string;
      parts[i * 3 + 3] = (this.templates[i] as PoolJob).afterId;
    }
    parts[n * 3 + 1] = NOTIFY_END;
    const line = parts.join("");
    if (this.origin.shared) this.line = line;
    return line;
  }
}
