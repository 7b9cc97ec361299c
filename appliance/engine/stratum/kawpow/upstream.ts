/**
 * KawUpstream: one session to a KawPow pool (protocols.md §G), a PrefixUpstream. A notify's own
 * target is the job's share target (RVN pools put the worker's vardiff target there); the last
 * set_target serves a notify without one. Shares go up as [user, pool job id, 0x nonce, 0x header
 * hash, 0x mix hash], the nonce whole.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { StratumError } from "../bitcoin/errors.ts";
import { intern, LineCache } from "../intern.ts";
import {
  type PrefixCodec,
  PrefixUpstream,
  type PrefixUpstreamHandler,
  type ShareTicket,
  type UpstreamOptions,
} from "../prefix-upstream.ts";
import {
  type Notify,
  parseNotify,
  parseSetExtranonce,
  parseSetTarget,
  parseSubscribeResult,
} from "./messages.ts";
import { difficultyOfTarget } from "./target.ts";

export type { ShareTicket, UpstreamOptions } from "../prefix-upstream.ts";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  poolJobId: string;
  header: string;
  seed: string;
  /** the share target, 64 hex digits */
  target: string;
  /** in the units of target.ts */
  difficulty: number;
  /** the session's nonce prefix every nonce of this job starts with */
  extranonce: string;
  clean: boolean;
  height: unknown;
  bits: unknown;
}

export type UpstreamHandler = PrefixUpstreamHandler<KawUpstream, UpstreamWork>;

/** what a pool's session is asked for when it sends no target at all: any hash is a share */
const NO_TARGET = "f".repeat(64);

const CODEC: PrefixCodec<Notify, UpstreamWork> = {
  parseSubscribeResult,
  parseSetTarget,
  parseSetExtranonce,
  parseNotify(params) {
    const n = parseNotify(params);
    if (n instanceof StratumError) return n;
    // lines that differ (an id, spacing) still give every session one string each; the seed
    // repeats across jobs
    n.jobId = intern(n.jobId);
    n.header = intern(n.header);
    n.seed = intern(n.seed);
    return n;
  },
  work(n, lastTarget, extranonce) {
    // the target repeats across jobs: one string instead of a copy per session and job
    const target = intern(n.target ?? lastTarget ?? NO_TARGET);
    return {
      poolJobId: n.jobId,
      header: n.header,
      seed: n.seed,
      target,
      difficulty: difficultyOfTarget(target),
      extranonce,
      clean: n.clean,
      height: n.height,
      bits: n.bits,
    };
  },
  lines: new LineCache<Notify | string>(256),
};

export class KawUpstream extends PrefixUpstream<Notify, UpstreamWork> {
  constructor(endpoint: Endpoint, opts: UpstreamOptions, handler: UpstreamHandler) {
    super(endpoint, opts, handler, CODEC);
  }

  /** Sends a share: [user, pool job id, 0x nonce, 0x header hash, 0x mix hash], the nonce whole. */
  submit(
    user: string,
    work: UpstreamWork,
    nonce: string,
    header: string,
    mix: string,
    ticket: ShareTicket,
  ): void {
    const id = this.shareId(ticket);
    if (id === null) return;
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"0x${nonce}","0x${header}","0x${mix}"]}\n`,
    );
  }
}
