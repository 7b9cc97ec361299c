/**
 * KaspaJob: pool work as the proxy hands it to miners, under a job id unique on the port (job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. Each miner keeps the last few jobs it was sent (miner-jobs.ts), with the prefix it
 * mined them under.
 */
import type { JobOrigin } from "../ethereum/job.ts";
import type { Notify } from "./messages.ts";
import { KaspaMethod, type NotifyForm } from "./methods.ts";
import type { KaspaUpstream, UpstreamWork } from "./upstream.ts";
import { leHex, wordsOfPrePow } from "./work.ts";

export type { JobOrigin };

let nextJobSeq = 0;

/**
 * The notify's params after the job id in the miner's form, made once per pool notify: in Efficient
 * mode every miner's session has the same notify (upstream.ts), and the words took a buffer, a view
 * and four bigints a miner.
 */
function paramsOf(n: Notify, form: NotifyForm): string {
  if (form === "hex") {
    n.hexParams ??= `"${n.prePow}${leHex(n.timestamp)}"`;
    return n.hexParams;
  }
  n.u64Params ??= `[${wordsOfPrePow(n.prePow).join(",")}],${n.timestamp}`;
  return n.u64Params;
}

export class KaspaJob {
  readonly jobId = (++nextJobSeq).toString(16);
  private u64Line: string | null = null;
  private hexLine: string | null = null;

  constructor(
    readonly origin: JobOrigin,
    readonly upstream: KaspaUpstream,
    readonly work: UpstreamWork,
  ) {}

  get difficulty(): number {
    return this.work.difficulty;
  }

  /**
   * mining.notify in the miner's form, built by hand: the u64 words must reach the miner as the
   * exact integers, which JSON.stringify of a number cannot guarantee above 2^53. A shared session's
   * line is built once per form; a dedicated session's job goes to one miner, so keeping its line
   * would only hold memory for as long as the miner keeps the job.
   */
  notifyLine(form: NotifyForm): string {
    const cached = form === "hex" ? this.hexLine : this.u64Line;
    if (cached !== null) return cached;
    const line = `{"id":null,"method":"${KaspaMethod.NOTIFY}","params":["${this.jobId}",${paramsOf(this.work.notify, form)}]}\n`;
    if (!this.origin.shared) return line;
    if (form === "hex") this.hexLine = line;
    else this.u64Line = line;
    return line;
  }
}
