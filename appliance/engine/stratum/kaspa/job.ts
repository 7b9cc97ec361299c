/**
 * KaspaJob: pool work as the proxy hands it to miners, under a job id unique on the port (job ids
 * of different sessions collide), with the session that issued it, so that a late share goes to
 * that session. Each miner keeps the last few jobs it was sent (miner-jobs.ts), with the prefix it
 * mined them under.
 */
import { type JoinedLine, joinedLine, LinePart } from "../../transport/joined-line.ts";
import type { LineWriter } from "../../transport/line-writer.ts";
import type { JobOrigin } from "../ethereum/job.ts";
import type { Notify } from "./messages.ts";
import { KaspaMethod, type NotifyForm } from "./methods.ts";
import type { KaspaUpstream, UpstreamWork } from "./upstream.ts";
import { leHex, wordsOfPrePow } from "./work.ts";

export type { JobOrigin };

let nextJobSeq = 0;

const NOTIFY_HEAD = new LinePart(`{"id":null,"method":"${KaspaMethod.NOTIFY}","params":["`);

/**
 * The notify after the job id in the miner's form, made once per pool notify: in Efficient mode
 * every miner's session has the same notify (upstream.ts), and the words took a buffer, a view and
 * four bigints a miner. Built by hand: the u64 words must reach the miner as the exact integers,
 * which JSON.stringify of a number cannot guarantee above 2^53.
 */
function restOf(n: Notify, form: NotifyForm): LinePart {
  if (form === "hex") {
    n.hexRest ??= new LinePart(`","${n.prePow}${leHex(n.timestamp)}"]}\n`);
    return n.hexRest;
  }
  n.u64Rest ??= new LinePart(`",[${wordsOfPrePow(n.prePow).join(",")}],${n.timestamp}]}\n`);
  return n.u64Rest;
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
   * Sends mining.notify in the miner's form. A shared session's line is made once per form and
   * kept; a dedicated session's job goes to one miner, so keeping its line would only hold memory
   * for as long as the miner keeps the job: it is written joined (joined-line.ts).
   */
  writeNotify(out: LineWriter, form: NotifyForm): void {
    if (!this.origin.shared) {
      out.writeJoined(this.join(form));
      return;
    }
    let line = form === "hex" ? this.hexLine : this.u64Line;
    if (line === null) {
      line = this.join(form).toString();
      if (form === "hex") this.hexLine = line;
      else this.u64Line = line;
    }
    out.write(line);
  }

  private join(form: NotifyForm): JoinedLine {
    return joinedLine().part(NOTIFY_HEAD).text(this.jobId).part(restOf(this.work.notify, form));
  }
}
