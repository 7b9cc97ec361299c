/**
 * PrefixMiner: a miner session of the families whose pools give a nonce prefix at subscribe and send
 * work as mining.set_target + mining.notify (KawPow; Equihash / ZIP 301), the miners' side of
 * PrefixUpstream. An explicit state machine (connected → subscribed → authorized → closed):
 * mining.subscribe waits for the main lane's session and answers with the prefix the miner mines
 * under (the session's, followed by the miner's slot byte on a shared session); mining.authorize
 * logs the worker in on the miner's own session; each job goes out with mining.set_extranonce when
 * its prefix differs from the miner's (a fee move, a new session), which only a miner that sent
 * mining.extranonce.subscribe takes (another is closed, to subscribe again), and mining.set_target
 * when its target changed. Each miner keeps its last jobs (miner-jobs.ts) with the prefix it mined them
 * under and the shares it sent for each. A family says what its shares hold, what it checks in them
 * and how they go up.
 */
import type { Membership } from "../few-map.ts";
import type { LineWriter } from "../transport/line-writer.ts";
import { badParams, ErrorCode, StratumError } from "./bitcoin/errors.ts";
import { parseAuthorize } from "./bitcoin/messages.ts";
import { intern } from "./intern.ts";
import { errorLine, parsePositional, requestLine, resultLine, type StratumId } from "./message.ts";
import { hasId, MinerJobs, type SentJob } from "./miner-jobs.ts";
import { type Identity, type MinerLane, MovableMiner, type Refusal } from "./movable-miner.ts";
import type { AuthorizeWaiter } from "./pool-session.ts";
import type { ShareTicket } from "./prefix-upstream.ts";

const Method = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SUBMIT: "mining.submit",
  SET_TARGET: "mining.set_target",
  SET_EXTRANONCE: "mining.set_extranonce",
} as const;

/** Pool work as a prefix family's job carries it. */
export interface PrefixWork {
  /** the session's prefix every nonce of the job starts with */
  readonly extranonce: string;
  /** the share target, 64 hex digits */
  readonly target: string;
  readonly clean: boolean;
}

/** A prefix family's job (KawJob, EqJob): port-unique id, issuing lane and session, notify line. */
export interface PrefixJob<W extends PrefixWork> {
  readonly jobId: string;
  readonly difficulty: number;
  readonly origin: { readonly target: string; readonly user: string | null; readonly shared: boolean };
  readonly upstream: {
    readonly isReady: boolean;
    readonly authorized: Membership<string>;
    /** a share: the family's three fields after the user and the pool's job id */
    submit(user: string, work: W, a: string, b: string, c: string, ticket: ShareTicket): void;
  };
  readonly work: W;
  writeNotify(out: LineWriter, clean: boolean): void;
}

/** A prefix family's lane (a PoolLane of PrefixUpstream sessions). */
export interface PrefixLane<J> extends MinerLane<J> {
  addUser(user: string, password: string, waiter: AuthorizeWaiter | null): void;
}

/** mining.subscribe ["agent", sessionId|null, host, port]: the agent; the rest is informational. */
export function parseSubscribe(params: unknown[]): string | StratumError {
  const agent = params[0];
  if (agent !== undefined && agent !== null && typeof agent !== "string")
    return badParams(Method.SUBSCRIBE, "agent");
  return typeof agent === "string" ? agent.slice(0, 128) : "";
}

export abstract class PrefixMiner<
  L extends PrefixLane<J>,
  J extends PrefixJob<W>,
  W extends PrefixWork,
  S extends { readonly jobId: string },
> extends MovableMiner<L, J, StratumError> {
  /** the prefix the miner holds now */
  prefix = "";
  extranonceSubscribed = false;
  private upstreamUser = "";
  protected readonly sent = new MinerJobs<J>();
  private lastTarget = "";

  /** what the family's logs call the prefix ("NONCE_1", "nonce prefix") */
  protected abstract get prefixName(): string;
  /** mining.submit's params as the family's shares carry them */
  protected abstract parseSubmit(params: unknown[]): S | StratumError;
  /** The family's checks of a share of a job the miner holds, then `send`. */
  protected abstract checkShare(id: StratumId, share: S, sent: SentJob<J>): void;

  protected answer(id: StratumId, result: unknown): void {
    this.out.write(resultLine(id, result));
  }

  protected refuse(id: StratumId, error: StratumError): void {
    this.out.write(errorLine(id, error));
  }

  protected refusal(kind: Refusal, message: string): StratumError {
    return new StratumError(kind === "other" ? ErrorCode.OTHER : ErrorCode.UNAUTHORIZED, message);
  }

  protected isStale(error: StratumError): boolean {
    return error.code === ErrorCode.STALE;
  }

  // ---- requests ----

  handleLine(line: string): void {
    const m = parsePositional(line);
    if (m === null) {
      this.host.log("warn", `miner ${this.ip}: malformed line`);
      this.strike(null, new StratumError(ErrorCode.OTHER, "malformed JSON"));
      return;
    }
    if (m.kind === "response") return;
    switch (m.method) {
      case Method.SUBSCRIBE:
        if (this.state !== "connected") {
          this.strike(m.id, new StratumError(ErrorCode.OTHER, "already subscribed"));
          return;
        }
        this.subscribe(m.id, m.params);
        return;
      case Method.EXTRANONCE_SUBSCRIBE:
        this.extranonceSubscribed = true;
        this.answer(m.id, true);
        return;
      case Method.AUTHORIZE:
        this.authorize(m.id, m.params);
        return;
      case Method.SUBMIT:
        this.submit(m.id, m.params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new StratumError(ErrorCode.OTHER, "unknown method"));
    }
  }

  /** mining.subscribe: the answer waits for the session whose prefix the miner will mine under. */
  private subscribe(id: StratumId, params: unknown[]): void {
    const agent = parseSubscribe(params);
    if (agent instanceof StratumError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    this.subscribeOn(id, this.host.mainLane(this));
  }

  protected override subscribed(id: StratumId, lane: L, poolPrefix: string): void {
    this.prefix = this.prefixOn(lane.shared, poolPrefix);
    this.state = "subscribed";
    this.answer(id, [null, this.prefix]);
  }

  private authorize(id: StratumId, params: unknown[]): void {
    const a = parseAuthorize(params);
    if (a instanceof StratumError) {
      this.strike(id, a);
      return;
    }
    if (this.state === "connected") {
      this.strike(id, new StratumError(ErrorCode.NOT_SUBSCRIBED, "not subscribed"));
      return;
    }
    this.authorizeWorker(id, this.main as L, a.user, a.password || "x");
  }

  protected admitted(who: Identity, lane: L): void {
    this.upstreamUser = who.upstreamUser;
    this.authorized(who, lane, this.canSetExtranonce());
  }

  /** mining.submit: the first checks (authorized, job known and its session alive), then the family's. */
  private submit(id: StratumId, params: unknown[]): void {
    const s = this.parseSubmit(params);
    if (s instanceof StratumError) {
      this.strike(id, s);
      return;
    }
    if (this.state !== "authorized") {
      this.strike(id, new StratumError(ErrorCode.UNAUTHORIZED, "unauthorized worker"));
      return;
    }
    const sent = this.sent.find(s.jobId, hasId);
    if (sent === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", new StratumError(ErrorCode.STALE, "job not found"));
      return;
    }
    this.checkShare(id, s, sent);
  }

  /** The last check: the share was not sent before for its job (`key` tells shares apart). */
  protected firstUse(id: StratumId, sent: SentJob<J>, key: string): boolean {
    if (this.sent.firstUse(sent, key)) return true;
    this.localVerdict(id, "invalid", new StratumError(ErrorCode.DUPLICATE, "duplicate share"));
    return false;
  }

  /**
   * The checks passed: the share goes to the session that issued its job, as the miner's worker (a
   * shared lane's own) or, with Compatible-style fee, a fee wallet's.
   */
  protected send(id: StratumId, job: J, a: string, b: string, c: string): void {
    const work = job.difficulty * this.host.factor;
    const feeWorker = this.feeWorker(work, job.upstream.authorized);
    const ticket = this.shareTicket(id, feeWorker?.key ?? job.origin.target, work);
    job.upstream.submit(feeWorker?.user ?? job.origin.user ?? this.upstreamUser, job.work, a, b, c, ticket);
  }

  // ---- jobs ----

  onLaneJob(lane: L, job: J): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job, job.work.clean);
  }

  onLaneSession(lane: L, u: { readonly extranonce: string }): void {
    // A new session of the miner's lane may have a new prefix: sendJob gives it with the next job.
    if (lane !== this.lane) return;
    if (this.prefixOn(lane.shared, u.extranonce) !== this.prefix && !this.canSetExtranonce())
      this.close(`pool session changed and the miner cannot take a new ${this.prefixName}`);
  }

  private canSetExtranonce(): boolean {
    return this.extranonceSubscribed && this.host.config.setting.cut !== 1;
  }

  protected sendJob(job: J, clean: boolean): void {
    const prefix = this.prefixOn(job.origin.shared, job.work.extranonce);
    if (prefix !== this.prefix) {
      if (!this.canSetExtranonce()) {
        this.close(`the miner cannot take a new ${this.prefixName}`);
        return;
      }
      this.prefix = prefix;
      this.out.write(requestLine(null, Method.SET_EXTRANONCE, [prefix]));
    }
    if (job.work.target !== this.lastTarget) {
      this.lastTarget = job.work.target;
      this.out.write(requestLine(null, Method.SET_TARGET, [job.work.target]));
    }
    job.writeNotify(this.out, clean);
    this.sent.add(job, this.prefix);
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }
}
