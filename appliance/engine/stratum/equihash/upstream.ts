/**
 * EqUpstream: one session to an Equihash pool (ZIP 301, protocols.md §F). mining.subscribe [agent,
 * null, host, port] (the answer's NONCE_1 starts every header nonce), mining.extranonce.subscribe
 * (pools that do not know it refuse it, which is harmless), then any number of mining.authorize.
 * Work arrives as mining.set_target (the target of later jobs, ZIP 301) and mining.notify.
 * It knows nothing of miners; its Lane decides what to do with work and closures.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { ErrorCode, readPoolError, StratumError } from "../bitcoin/errors.ts";
import { intern } from "../intern.ts";
import { parsePositional } from "../message.ts";
import { PoolSession } from "../pool-session.ts";
import {
  type HeaderFields,
  parseNotify,
  parseSetExtranonce,
  parseSetTarget,
  parseSubscribeResult,
} from "./messages.ts";
import { EquihashMethod } from "./methods.ts";
import { difficultyOfTarget } from "./target.ts";

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

export interface ShareTicket {
  onResult(error: StratumError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: EqUpstream): void;
  onWork(u: EqUpstream, work: UpstreamWork): void;
  /**
   * `healthy`: the session had delivered work. `refused` is always false: a Equihash session has no
   * login of its own (a refused authorize is answered to its miner, the session stays).
   */
  onClosed(u: EqUpstream, reason: string, healthy: boolean, refused: boolean): void;
}

export interface UpstreamOptions {
  agent: string;
  connectTimeoutMs: number;
  jobTimeoutMs: number;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; resolve: (ok: boolean) => void }
  | { kind: "subscribe" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";
/** what a pool's session is asked for when it sends no target at all: any solution is a share */
const NO_TARGET = "f".repeat(64);

export class EqUpstream extends PoolSession<Pending> {
  extranonce = "";
  work: UpstreamWork | null = null;
  readonly authorized = new Set<string>();
  private lastTarget: string | null = null;
  private jobs = 0;

  constructor(
    endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    private readonly handler: UpstreamHandler,
  ) {
    super(endpoint, opts.connectTimeoutMs);
  }

  protected hello(): void {
    this.request({ kind: "subscribe" }, EquihashMethod.SUBSCRIBE, [
      this.opts.agent,
      null,
      this.endpoint.host,
      String(this.endpoint.port),
    ]);
  }

  /** Authorizes a user on this session (every shared worker and fee worker once). */
  authorize(user: string, password: string): Promise<boolean> {
    if (this.authorized.has(user)) return Promise.resolve(true);
    if (this.state !== "ready") return Promise.resolve(false);
    return new Promise((resolve) => {
      this.request({ kind: "authorize", user, resolve }, EquihashMethod.AUTHORIZE, [user, password]);
    });
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
    if (this.state !== "ready") {
      ticket.onResult(new StratumError(ErrorCode.STALE, "upstream session closed"), 0);
      return;
    }
    if (!this.hasRoom()) {
      ticket.onResult(new StratumError(ErrorCode.OTHER, "pool is not answering"), 0);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"${time}","${nonce2}","${solution}"]}\n`,
    );
  }

  protected ended(reason: string): void {
    const closed = new StratumError(ErrorCode.STALE, "upstream session closed");
    for (const p of this.pending.values()) {
      if (p.kind === "share") p.ticket.onResult(closed, 0);
      else if (p.kind === "authorize") p.resolve(false);
    }
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, false);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const m = parsePositional(line);
    if (m === null) {
      this.close("malformed line from pool");
      return;
    }
    if (m.kind === "response") {
      const p = typeof m.id === "number" ? this.pending.get(m.id) : undefined;
      if (p === undefined) return;
      this.pending.delete(m.id as number);
      this.onResponse(p, m.result, m.error);
      this.answered();
      return;
    }
    switch (m.method) {
      case EquihashMethod.NOTIFY: {
        const n = parseNotify(m.params);
        if (n instanceof StratumError) {
          this.close(n.message);
          return;
        }
        // a pool sends the same job to every session (Efficient: one per miner), and the target
        // repeats across jobs: one string each instead of a copy per session and job
        const target = intern(this.lastTarget ?? NO_TARGET);
        this.onJob({
          poolJobId: intern(n.jobId),
          version: intern(n.version),
          prevHash: intern(n.prevHash),
          merkleRoot: intern(n.merkleRoot),
          reserved: intern(n.reserved),
          time: n.time,
          bits: intern(n.bits),
          target,
          difficulty: difficultyOfTarget(target),
          extranonce: this.extranonce,
          clean: n.clean,
        });
        return;
      }
      case EquihashMethod.SET_TARGET: {
        const t = parseSetTarget(m.params);
        if (t !== null) this.lastTarget = t;
        return;
      }
      case EquihashMethod.SET_EXTRANONCE: {
        // takes effect with the next notify: each job carries the NONCE_1 it was issued with
        const e = parseSetExtranonce(m.params);
        if (e !== null) this.extranonce = e;
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onJob(work: UpstreamWork): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.work = work;
    this.handler.onWork(this, work);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new StratumError(ErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "subscribe": {
        const prefix = parseSubscribeResult(result);
        if (prefix === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = prefix;
        this.request({ kind: "ignore" }, EquihashMethod.EXTRANONCE_SUBSCRIBE, []);
        this.state = "ready";
        this.arm(this.opts.jobTimeoutMs, NO_JOB);
        this.handler.onSubscribed(this);
        return;
      }
      case "authorize": {
        const ok = result === true && readPoolError(error) === null;
        if (ok) this.authorized.add(p.user);
        p.resolve(ok);
        return;
      }
      case "ignore":
        return;
    }
  }
}
