/**
 * KaspaJob: pool work as the proxy hands it to miners, under a job id unique on the port (job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. Each miner keeps the last few jobs it was sent (miner-jobs.ts), with the prefix it
 * mined them under.
 */
import type { JobOrigin } from "../ethereum/job.ts";
import { KaspaMethod, type NotifyForm } from "./methods.ts";
import type { KaspaUpstream, UpstreamWork } from "./upstream.ts";
import { leHex, wordsOfPrePow } from "./work.ts";

export type { JobOrigin };

let nextJobSeq = 0;

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
    const w = this.work;
    const params =
      form === "hex"
        ? `"${w.prePow}${leHex(w.timestamp)}"`
        : `[${wordsOfPrePow(w.prePow).join(",")}],${w.timestamp}`;
    const line = `{"id":null,"method":"${KaspaMethod.NOTIFY}","params":["${this.jobId}",${params}]}\n`;
    if (!this.origin.shared) return line;
    if (form === "hex") this.hexLine = line;
    else this.u64Line = line;
    return line;
  }
}
