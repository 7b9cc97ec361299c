/**
 * EqMinerSession: one connected Equihash miner, a PrefixMiner (subscribe, authorize, NONCE_1 and
 * target changes, fee moves). Checks before a share goes up, in this order: authorized, job known and
 * its session alive, NONCE_2 exactly the length left by the NONCE_1 the job was sent under, the
 * solution's length for the port's coin, share not sent before for the job. A shared session's
 * share goes up with the miner's slot byte in front of its NONCE_2. Errors on the share path are
 * data ([code, message, null]).
 */
import { ErrorCode, StratumError } from "../bitcoin/errors.ts";
import type { StratumId } from "../message.ts";
import type { SentJob } from "../miner-jobs.ts";
import type { MovableHost } from "../movable-miner.ts";
import { PrefixMiner } from "../prefix-miner.ts";
import { slotHex } from "../slot-bytes.ts";
import type { EqJob } from "./job.ts";
import type { Lane } from "./lane.ts";
import { parseSubmit, type Submit, solutionLength } from "./messages.ts";
import { NONCE_BYTES } from "./methods.ts";
import type { UpstreamWork } from "./upstream.ts";

export interface MinerHost extends MovableHost<Lane> {
  /** bytes of a solution on the port's coin; null: checked against its compactSize prefix only */
  readonly solutionBytes: number | null;
}

export class EqMinerSession extends PrefixMiner<Lane, EqJob, UpstreamWork, Submit> {
  declare protected readonly host: MinerHost;

  protected get prefixName(): string {
    return "NONCE_1";
  }

  protected parseSubmit(params: unknown[]): Submit | StratumError {
    return parseSubmit(params);
  }

  protected checkShare(id: StratumId, s: Submit, sent: SentJob<EqJob>): void {
    // NONCE_1 ‖ NONCE_2 is the whole 32-byte nonce: a NONCE_2 of any other length would put the
    // miner's work outside the NONCE_1 it was given (or under another miner's slot byte)
    if (s.nonce2.length !== NONCE_BYTES * 2 - sent.prefix.length) {
      this.localVerdict(
        id,
        "invalid",
        new StratumError(ErrorCode.OTHER, `NONCE_2 must be ${NONCE_BYTES - sent.prefix.length / 2} bytes`),
      );
      return;
    }
    const bytes = this.host.solutionBytes;
    if (bytes !== null && solutionLength(s.solution)?.bytes !== bytes) {
      this.localVerdict(
        id,
        "invalid",
        new StratumError(ErrorCode.OTHER, `solution must be ${bytes} bytes on this coin`),
      );
      return;
    }
    if (!this.firstUse(id, sent, shareKey(s))) return;
    const poolNonce2 = sent.job.origin.shared ? slotHex(this.slot) + s.nonce2 : s.nonce2;
    this.send(id, sent.job, s.time, poolNonce2, s.solution);
  }
}

/**
 * What tells one share of a job from another: the time, the NONCE_2 and the whole solution. One
 * nonce often has several solutions, and two of them can share most of their indices (the leftmost
 * subtrees of Wagner's algorithm), so a key over the solution's head took a distinct share for a
 * repeat. The solution is hashed (wyhash, 64 bits) so that a key stays small when the solution is
 * 1,344 bytes.
 */
function shareKey(s: Submit): string {
  return `${s.time}${s.nonce2}${Bun.hash(s.solution).toString(36)}`;
}
