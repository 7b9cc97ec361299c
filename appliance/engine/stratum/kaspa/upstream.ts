/**
 * KaspaUpstream: one session to a Kaspa pool (protocols.md §D); the socket, the pending table and
 * retiring are PoolSession's. mining.subscribe [agent, "EthereumStratum/1.0.0"],
 * mining.extranonce.subscribe, then any number of mining.authorize; the pool gives the prefix in
 * the subscribe answer (Bitmain shape) or in mining.set_extranonce, and sends mining.set_difficulty
 * and mining.notify in either form. A share goes up as [user, pool job id, the full 16-hex nonce].
 * It knows nothing of miners; its Lane decides what to do with work.
 */
import { FewSet } from "../../few-map.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { EthError, EthErrorCode, readPoolError } from "../ethereum/errors.ts";
import { intern, LineCache } from "../intern.ts";
import { parsePositional } from "../message.ts";
import { type AuthorizeWaiter, answerClosed, PoolSession } from "../pool-session.ts";
import {
  type Notify,
  parseDifficulty,
  parseNotify,
  parseSetExtranonce,
  parseSubscribeResult,
} from "./messages.ts";
import { KASPA_PROTOCOL, KaspaMethod } from "./methods.ts";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  /** shared by the sessions given the same notify line */
  notify: Notify;
  difficulty: number;
  /** the prefix every nonce of this job starts with (hex, possibly empty) */
  extranonce: string;
}

export interface ShareTicket {
  onResult(error: EthError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: KaspaUpstream): void;
  onWork(u: KaspaUpstream, work: UpstreamWork): void;
  /** `healthy`: the session had delivered work; `refused` is never set (a subscribe is no login) */
  onClosed(u: KaspaUpstream, reason: string, healthy: boolean, refused: boolean): void;
}

export interface UpstreamOptions {
  agent: string;
  connectTimeoutMs: number;
  jobTimeoutMs: number;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; waiter: AuthorizeWaiter | null }
  | { kind: "subscribe" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";

/**
 * A pool sends every session the same notify line: parsed once, not once per session (in Efficient
 * mode a session per miner, each parse a dozen objects and five bigints of garbage a job).
 */
const notifyCache = new LineCache<Notify>(256);

export class KaspaUpstream extends PoolSession<Pending> {
  extranonce = "";
  readonly authorized = new FewSet<string>();
  private nextDifficulty = 1;
  private jobs = 0;

  constructor(
    endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    private readonly handler: UpstreamHandler,
  ) {
    super(endpoint, opts.connectTimeoutMs);
  }

  protected hello(): void {
    this.request({ kind: "subscribe" }, KaspaMethod.SUBSCRIBE, [this.opts.agent, KASPA_PROTOCOL]);
  }

  /** Authorizes a user on this session (every share names one). */
  authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void {
    if (this.authorized.has(user)) waiter?.onPoolAuthorize(user, true);
    else if (this.state !== "ready") waiter?.onPoolAuthorize(user, false);
    else this.request({ kind: "authorize", user, waiter }, KaspaMethod.AUTHORIZE, [user, password]);
  }

  /** Sends a share: [user, pool job id, the full nonce as 16 hex digits]. */
  submit(user: string, work: UpstreamWork, nonce: string, ticket: ShareTicket): void {
    if (this.state !== "ready") {
      ticket.onResult(new EthError(EthErrorCode.STALE, "upstream session closed"), 0);
      return;
    }
    if (!this.hasRoom()) {
      ticket.onResult(new EthError(EthErrorCode.OTHER, "pool is not answering"), 0);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    // Built by hand: once per share, and only the names need JSON escaping.
    this.writer?.write(
      `{"id":${id},"method":"${KaspaMethod.SUBMIT}","params":[${JSON.stringify(user)},${JSON.stringify(work.notify.jobId)},"${nonce}"]}\n`,
    );
  }

  protected ended(reason: string): void {
    if (this.pending.size > 0)
      this.pending.each(answerClosed, new EthError(EthErrorCode.STALE, "upstream session closed"));
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, false);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const known = notifyCache.get(line);
    if (known !== undefined) {
      this.onJob(known);
      return;
    }
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
      case KaspaMethod.NOTIFY: {
        const n = parseNotify(line, m.params);
        if (n instanceof EthError) {
          this.close(n.message);
          return;
        }
        // interned: lines that differ (an id, spacing) still give the sessions one job id and hash
        n.jobId = intern(n.jobId);
        n.prePow = intern(n.prePow);
        // only id-less notifications: a line with an id is not the same message twice
        if (m.id === null) notifyCache.set(line, n);
        this.onJob(n);
        return;
      }
      case KaspaMethod.SET_DIFFICULTY: {
        const d = parseDifficulty(m.params);
        if (d !== null) this.nextDifficulty = d;
        return;
      }
      case KaspaMethod.SET_EXTRANONCE: {
        // takes effect with the next notify: each job carries the prefix it was issued with
        const e = parseSetExtranonce(m.params);
        if (e !== null) this.extranonce = e;
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onJob(notify: Notify): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.handler.onWork(this, { notify, difficulty: this.nextDifficulty, extranonce: this.extranonce });
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new EthError(EthErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "subscribe": {
        const s = parseSubscribeResult(result);
        if (s === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = s.extranonce;
        this.request({ kind: "ignore" }, KaspaMethod.EXTRANONCE_SUBSCRIBE, []);
        this.state = "ready";
        this.arm(this.opts.jobTimeoutMs, NO_JOB);
        this.handler.onSubscribed(this);
        return;
      }
      case "authorize": {
        const ok = result === true && readPoolError(error) === null;
        if (ok) this.authorized.add(p.user);
        p.waiter?.onPoolAuthorize(p.user, ok);
        return;
      }
      case "ignore":
        return;
    }
  }
}
