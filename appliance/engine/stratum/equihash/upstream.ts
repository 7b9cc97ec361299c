/**
 * EqUpstream: one session to an Equihash pool (ZIP 301, protocols.md §F), a PrefixUpstream: the
 * subscribe answer's NONCE_1 starts every header nonce, mining.set_target is the target of later
 * jobs. Shares go up as [user, pool job id, time, NONCE_2 of this session, solution].
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
  type HeaderFields,
  type Notify,
  parseNotify,
  parseSetExtranonce,
  parseSetTarget,
  parseSubscribeResult,
} from "./messages.ts";
import { difficultyOfTarget } from "./target.ts";

export type { ShareTicket, UpstreamOptions } from "../prefix-upstream.ts";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork extends HeaderFields {
  poolJobId: string;
  /** the share target, 64 hex digits */
  target: string;
  /** in the units of target.ts */
  difficulty: number;
  /** the session's NONCE_1, which every nonce of this job starts with */
  extranonce: string;
  clean: boolean;
}

export type UpstreamHandler = PrefixUpstreamHandler<EqUpstream, UpstreamWork>;

/** what a pool's session is asked for when it sends no target at all: any solution is a share */
const NO_TARGET = "f".repeat(64);

const CODEC: PrefixCodec<Notify, UpstreamWork> = {
  parseSubscribeResult,
  parseSetTarget,
  parseSetExtranonce,
  parseNotify(params) {
    const n = parseNotify(params);
    if (n instanceof StratumError) return n;
    // lines that differ (an id, spacing) still give every session one string each
    n.jobId = intern(n.jobId);
    n.version = intern(n.version);
    n.prevHash = intern(n.prevHash);
    n.merkleRoot = intern(n.merkleRoot);
    n.reserved = intern(n.reserved);
    n.bits = intern(n.bits);
    return n;
  },
  work(n, lastTarget, extranonce) {
    // the target repeats across jobs: one string instead of a copy per session and job
    const target = intern(lastTarget ?? NO_TARGET);
    return {
      poolJobId: n.jobId,
      version: n.version,
      prevHash: n.prevHash,
      merkleRoot: n.merkleRoot,
      reserved: n.reserved,
      time: n.time,
      bits: n.bits,
      target,
      difficulty: difficultyOfTarget(target),
      extranonce,
      clean: n.clean,
    };
  },
  lines: new LineCache<Notify | string>(256),
};

export class EqUpstream extends PrefixUpstream<Notify, UpstreamWork> {
  constructor(endpoint: Endpoint, opts: UpstreamOptions, handler: UpstreamHandler) {
    super(endpoint, opts, handler, CODEC);
  }

  /** Sends a share: [user, pool job id, time, NONCE_2 of this session, solution]. */
  submit(
    user: string,
    work: UpstreamWork,
    time: string,
    nonce2: string,
    solution: string,
    ticket: ShareTicket,
  ): void {
    const id = this.shareId(ticket);
    if (id === null) return;
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"${time}","${nonce2}","${solution}"]}\n`,
    );
  }
}
