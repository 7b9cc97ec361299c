/**
 * PrefixUpstream: a pool session of the families whose pools speak set_target + notify and give a
 * nonce prefix at subscribe (KawPow, Equihash / ZIP 301): mining.subscribe [agent, null, host, port]
 * (the answer's prefix starts every nonce), mining.extranonce.subscribe (pools that do not know it
 * refuse it, which is harmless), then any number of mining.authorize. Work arrives as
 * mining.set_target and mining.notify; what a notify holds and how a share is sent are the family's
 * (its codec and its submit line). It knows nothing of miners; its lane decides what to do.
 */
import { FewSet } from "../few-map.ts";
import type { Endpoint } from "../transport/endpoint.ts";
import { ErrorCode, readPoolError, StratumError } from "./bitcoin/errors.ts";
import type { LineCache } from "./intern.ts";
import { parsePositional } from "./message.ts";
import { type AuthorizeWaiter, answerClosed, PoolSession } from "./pool-session.ts";

/** The prefix families' pool methods (their miners' notify is the same method). */
export const PrefixMethod = {
  SUBSCRIBE: "mining.subscribe",
  EXTRANONCE_SUBSCRIBE: "mining.extranonce.subscribe",
  AUTHORIZE: "mining.authorize",
  SET_TARGET: "mining.set_target",
  NOTIFY: "mining.notify",
  SET_EXTRANONCE: "mining.set_extranonce",
} as const;

export interface ShareTicket {
  onResult(error: StratumError | null, latencyMs: number): void;
}

export interface PrefixUpstreamHandler<U, W> {
  onSubscribed(u: U): void;
  onWork(u: U, work: W): void;
  /**
   * `healthy`: the session had delivered work. `refused` is always false: such a session has no
   * login of its own (a refused authorize is answered to its miner, the session stays).
   */
  onClosed(u: U, reason: string, healthy: boolean, refused: boolean): void;
}

export interface UpstreamOptions {
  agent: string;
  connectTimeoutMs: number;
  jobTimeoutMs: number;
}

/** A family's reading of its pools' messages. */
export interface PrefixCodec<N extends object, W> {
  parseSubscribeResult(result: unknown): string | null;
  parseSetTarget(params: unknown[]): string | null;
  parseSetExtranonce(params: unknown[]): string | null;
  /** a notify's params, read once per distinct line and shared by the sessions given it */
  parseNotify(params: unknown[]): N | StratumError;
  /** a notify as one session's work, with the target in force and the session's prefix */
  work(n: N, lastTarget: string | null, extranonce: string): W;
  /**
   * id-less notify and set_target lines by their exact text, read once: a notify as its parse, a
   * set_target as its target. A pool sends the same line to every session (Efficient mode: one per
   * miner), so one parse serves them all instead of a dozen objects per miner and job; one table,
   * so that every other line (a share's answer) costs one look-up
   */
  readonly lines: LineCache<N | string>;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; waiter: AuthorizeWaiter | null }
  | { kind: "subscribe" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";

export class PrefixUpstream<N extends object, W> extends PoolSession<Pending> {
  extranonce = "";
  work: W | null = null;
  readonly authorized = new FewSet<string>();
  private lastTarget: string | null = null;
  private jobs = 0;

  constructor(
    endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    private readonly handler: PrefixUpstreamHandler<PrefixUpstream<N, W>, W>,
    private readonly codec: PrefixCodec<N, W>,
  ) {
    super(endpoint, opts.connectTimeoutMs);
  }

  protected hello(): void {
    this.request({ kind: "subscribe" }, PrefixMethod.SUBSCRIBE, [
      this.opts.agent,
      null,
      this.endpoint.host,
      String(this.endpoint.port),
    ]);
  }

  /** Authorizes a user on this session (every shared worker and fee worker once). */
  authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void {
    if (this.authorized.has(user)) waiter?.onPoolAuthorize(user, true);
    else if (this.state !== "ready") waiter?.onPoolAuthorize(user, false);
    else this.request({ kind: "authorize", user, waiter }, PrefixMethod.AUTHORIZE, [user, password]);
  }

  /**
   * A share's request id, its ticket waiting for the pool's answer; null when the share cannot go
   * (its ticket is answered here). The family then writes its mining.submit line with that id.
   */
  protected shareId(ticket: ShareTicket): number | null {
    if (this.state !== "ready") {
      ticket.onResult(new StratumError(ErrorCode.STALE, "upstream session closed"), 0);
      return null;
    }
    if (!this.hasRoom()) {
      ticket.onResult(new StratumError(ErrorCode.OTHER, "pool is not answering"), 0);
      return null;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    return id;
  }

  protected ended(reason: string): void {
    if (this.pending.size > 0)
      this.pending.each(answerClosed, new StratumError(ErrorCode.STALE, "upstream session closed"));
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, false);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const known = this.codec.lines.get(line);
    if (typeof known === "string") {
      this.lastTarget = known;
      return;
    }
    if (known !== undefined) {
      this.onJob(this.codec.work(known, this.lastTarget, this.extranonce));
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
      case PrefixMethod.NOTIFY: {
        const n = this.codec.parseNotify(m.params);
        if (n instanceof StratumError) {
          this.close(n.message);
          return;
        }
        // only id-less notifications: a line with an id is not the same message twice
        if (m.id === null) this.codec.lines.set(line, n);
        this.onJob(this.codec.work(n, this.lastTarget, this.extranonce));
        return;
      }
      case PrefixMethod.SET_TARGET: {
        const t = this.codec.parseSetTarget(m.params);
        if (t === null) return;
        this.lastTarget = t;
        if (m.id === null) this.codec.lines.set(line, t);
        return;
      }
      case PrefixMethod.SET_EXTRANONCE: {
        // takes effect with the next notify: each job carries the prefix it was issued with
        const e = this.codec.parseSetExtranonce(m.params);
        if (e !== null) this.extranonce = e;
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onJob(work: W): void {
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
        const prefix = this.codec.parseSubscribeResult(result);
        if (prefix === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = prefix;
        this.request({ kind: "ignore" }, PrefixMethod.EXTRANONCE_SUBSCRIBE, []);
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
