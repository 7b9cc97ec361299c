/**
 * KawMinerSession: one connected KawPow miner, a PrefixMiner (subscribe, authorize, prefix and
 * target changes, fee moves). Checks before a share goes up, in this order: authorized, job known and
 * its session alive, nonce inside the miner's prefix, header hash of that job, nonce not sent before
 * for it. A fee pool on another epoch than the main pool's is not used. Errors on the share path are
 * data ([code, message, null]).
 */
import { ErrorCode, StratumError } from "../bitcoin/errors.ts";
import type { StratumId } from "../message.ts";
import type { SentJob } from "../miner-jobs.ts";
import { PrefixMiner } from "../prefix-miner.ts";
import type { KawJob } from "./job.ts";
import type { Lane } from "./lane.ts";
import { parseSubmit, type Submit } from "./messages.ts";
import type { UpstreamWork } from "./upstream.ts";

export class KawMinerSession extends PrefixMiner<Lane, KawJob, UpstreamWork, Submit> {
  protected get prefixName(): string {
    return "nonce prefix";
  }

  protected parseSubmit(params: unknown[]): Submit | StratumError {
    return parseSubmit(params);
  }

  protected checkShare(id: StratumId, s: Submit, sent: SentJob<KawJob>): void {
    if (!s.nonce.startsWith(sent.prefix)) {
      this.localVerdict(id, "invalid", new StratumError(ErrorCode.OTHER, "nonce outside the miner's prefix"));
      return;
    }
    if (s.header !== sent.job.work.header) {
      this.localVerdict(
        id,
        "invalid",
        new StratumError(ErrorCode.OTHER, "header hash does not match the job"),
      );
      return;
    }
    if (this.firstUse(id, sent, s.nonce)) this.send(id, sent.job, s.nonce, s.header, s.mix);
  }

  /** A fee pool on another epoch (or coin) would make the miner rebuild its DAG for every visit. */
  protected override feeLaneFits(want: string, job: KawJob): boolean {
    return this.sameEpoch(want, this.main?.current?.work.seed, job.work.seed);
  }
}
