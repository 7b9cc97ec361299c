/**
 * KawJob: pool work as the proxy hands it to miners, under a job id unique on the port (job ids of
 * different pool sessions collide), with the session that issued it, so that a late share goes to
 * that session. Each miner keeps the last few jobs it was sent with the prefix it mined them under
 * and the nonces it already submitted for each (prefix-miner.ts, MinerJobs).
 */
import { requestLine } from "../message.ts";
import { KawpowMethod } from "./methods.ts";
import type { KawUpstream, UpstreamWork } from "./upstream.ts";

/** The part of a lane a job needs. */
export interface JobOrigin {
  /** "main" or a fee wallet key */
  readonly target: string;
  /** the one worker every share is submitted as on a shared lane; null: the miner's own */
  readonly user: string | null;
  readonly shared: boolean;
}

let nextJobSeq = 0;

export class KawJob {
  readonly jobId = (++nextJobSeq).toString(16);
  private readonly lines: [string | null, string | null] = [null, null];

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: KawUpstream,
    readonly work: UpstreamWork,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /**
   * mining.notify [jobId, headerHash, seedHash, target, clean, height, bits]. A shared session's job
   * goes to many miners, so its line is built once per flag; a dedicated session's goes to one miner,
   * which keeps its last jobs, and a cached line there would only hold memory.
   */
  notifyLine(clean: boolean): string {
    const i = clean ? 1 : 0;
    const cached = this.lines[i];
    if (cached !== null) return cached;
    const w = this.work;
    const line = requestLine(null, KawpowMethod.NOTIFY, [
      this.jobId,
      w.header,
      w.seed,
      w.target,
      clean,
      w.height,
      w.bits,
    ]);
    if (this.origin.shared) this.lines[i] = line;
    return line;
  }
}
