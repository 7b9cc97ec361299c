/**
 * EthUpstream: one session to an Ethereum pool in one dialect (protocols.md §B).
 * - ETHPROXY: eth_submitLogin with the session's one user, then eth_getWork; the pool pushes new
 *   work as a response with id 0 (some pools use other ids: any unrequested work array is work).
 * - EthereumStratum/1.0.0: mining.subscribe ["agent", "EthereumStratum/1.0.0"] (the answer's prefix
 *   starts every nonce), mining.extranonce.subscribe, then any number of mining.authorize.
 * It knows nothing of miners; its Lane decides what to do with work and closures.
 */
import { FewSet } from "../../few-map.ts";
import type { Endpoint } from "../../transport/endpoint.ts";
import { intern, LineCache } from "../intern.ts";
import { parsePositional } from "../message.ts";
import { type AuthorizeWaiter, answerClosed, PoolSession } from "../pool-session.ts";
import { EthError, EthErrorCode, readPoolError } from "./errors.ts";
import {
  type Notify,
  parseDifficulty,
  parseNotify,
  parseSetExtranonce,
  parseSubscribeResult,
  parseWork,
} from "./messages.ts";
import { type Dialect, EthproxyMethod, NICEHASH_PROTOCOL, NicehashMethod, WORK_PUSH_ID } from "./methods.ts";
import { difficultyOfBoundary } from "./target.ts";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  /** what a share names the job by upstream: the notify job id (ES1) or the header hash (ETHPROXY) */
  poolJobId: string;
  header: string;
  seed: string;
  /** share difficulty in NiceHash units (target.ts) */
  difficulty: number;
  /** ETHPROXY boundary (64 hex), null for ES1 */
  boundary: string | null;
  /** ES1 extranonce prefix every nonce of this job starts with; "" for ETHPROXY */
  extranonce: string;
  clean: boolean;
}

export interface ShareTicket {
  onResult(error: EthError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onSubscribed(u: EthUpstream): void;
  onWork(u: EthUpstream, work: UpstreamWork): void;
  /**
   * `healthy`: the session had delivered work. `refused`: the pool answered but refused the login
   * (ETHPROXY), which says nothing about the pool being down.
   */
  onClosed(u: EthUpstream, reason: string, healthy: boolean, refused: boolean): void;
}

/** Shared by the sessions of a port that present the same agent in one dialect (stratum/agent-options.ts). */
export interface UpstreamOptions {
  readonly dialect: Dialect;
  readonly agent: string;
  readonly connectTimeoutMs: number;
  readonly jobTimeoutMs: number;
}

/** ETHPROXY: the one login of a session (ES1 authorizes users later), kept by its lane. */
export interface SessionLogin {
  readonly user: string | null;
  readonly password: string;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "authorize"; user: string; waiter: AuthorizeWaiter | null }
  | { kind: "login" }
  | { kind: "subscribe" }
  | { kind: "work" }
  | { kind: "ignore" };

const NO_JOB = "no job from pool in time";

/** The rig part of "wallet.rig", sent as ETHPROXY's top-level worker. */
const rigOf = (user: string): string => {
  const dot = user.indexOf(".");
  return dot < 0 ? "" : user.slice(dot + 1);
};

/**
 * EthereumStratum notifies by their exact line: a pool sends the same line to every session
 * (Efficient mode: one per miner), so one parse serves them all.
 */
const notifyCache = new LineCache<Notify>(256);

export class EthUpstream extends PoolSession<Pending> {
  extranonce = "";
  work: UpstreamWork | null = null;
  readonly authorized = new FewSet<string>();
  private nextDifficulty = 1;
  private jobs = 0;
  private refused = false;
  private readonly workerField: string;

  /** ETHPROXY: the session's login; null in EthereumStratum */
  private readonly login: SessionLogin | null;

  constructor(
    endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    login: SessionLogin,
    private readonly handler: UpstreamHandler,
  ) {
    super(endpoint, opts.connectTimeoutMs);
    this.login = opts.dialect === "ethproxy" ? login : null;
    const rig = this.login === null ? "" : rigOf(this.login.user ?? "");
    this.workerField = rig === "" ? "" : `,"worker":${JSON.stringify(rig)}`;
  }

  get dialect(): Dialect {
    return this.opts.dialect;
  }

  protected hello(): void {
    if (this.dialect === "ethproxy") {
      this.request({ kind: "login" }, EthproxyMethod.SUBMIT_LOGIN, [
        this.login?.user ?? "",
        this.login?.password ?? "x",
      ]);
    } else {
      this.request({ kind: "subscribe" }, NicehashMethod.SUBSCRIBE, [this.opts.agent, NICEHASH_PROTOCOL]);
    }
  }

  /** ES1: authorizes a further user on this session (ETHPROXY has its one login). */
  authorize(user: string, password: string, waiter: AuthorizeWaiter | null): void {
    if (this.authorized.has(user)) waiter?.onPoolAuthorize(user, true);
    else if (this.state !== "ready" || this.dialect === "ethproxy") waiter?.onPoolAuthorize(user, false);
    else this.request({ kind: "authorize", user, waiter }, NicehashMethod.AUTHORIZE, [user, password]);
  }

  /**
   * Sends a share. ETHPROXY: [nonce, header, mix]; ES1: [user, job id, nonce minus this job's
   * prefix]. `nonce` is the full 8-byte nonce in hex.
   */
  submit(user: string, work: UpstreamWork, nonce: string, mix: string, ticket: ShareTicket): void {
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
    if (this.dialect === "ethproxy")
      this.writer?.write(
        `{"id":${id},"jsonrpc":"2.0","method":"eth_submitWork","params":["0x${nonce}","0x${work.header}","0x${mix}"]${this.workerField}}\n`,
      );
    else
      this.writer?.write(
        `{"id":${id},"method":"mining.submit","params":[${JSON.stringify(user)},${JSON.stringify(work.poolJobId)},"${nonce.slice(work.extranonce.length)}"]}\n`,
      );
  }

  /** ETHPROXY: passes a miner's own hashrate report on (its dedicated session only). */
  submitHashrate(rateHex: string, idHex: string): void {
    if (this.state !== "ready" || this.dialect !== "ethproxy") return;
    const id = this.nextId++;
    this.pending.set(id, { kind: "ignore" });
    this.writer?.write(
      `{"id":${id},"jsonrpc":"2.0","method":"eth_submitHashrate","params":["0x${rateHex}","0x${idHex}"]${this.workerField}}\n`,
    );
  }

  protected ended(reason: string): void {
    if (this.pending.size > 0)
      this.pending.each(answerClosed, new EthError(EthErrorCode.STALE, "upstream session closed"));
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, this.refused);
  }

  /** ETHPROXY requests carry the rig as a top-level worker. */
  protected override requestText(id: number, method: string, params: unknown[]): string {
    return this.dialect === "ethproxy"
      ? `${JSON.stringify({ id, jsonrpc: "2.0", method, params }).slice(0, -1)}${this.workerField}}\n`
      : super.requestText(id, method, params);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const known = this.dialect === "ethproxy" ? undefined : notifyCache.get(line);
    if (known !== undefined) {
      this.onNotify(known);
      return;
    }
    const m = parsePositional(line);
    if (m === null) {
      this.close("malformed line from pool");
      return;
    }
    if (m.kind === "response") {
      const p = typeof m.id === "number" ? this.pending.get(m.id) : undefined;
      if (p === undefined) {
        // ETHPROXY pushes work as a response with id 0 (or another id nobody asked with)
        if (this.dialect === "ethproxy" && (m.id === WORK_PUSH_ID || Array.isArray(m.result)))
          this.onEthproxyWork(m.result);
        return;
      }
      this.pending.delete(m.id as number);
      this.onResponse(p, m.result, m.error);
      this.answered();
      return;
    }
    if (this.dialect === "ethproxy") {
      this.answerUnsupported(m.id);
      return;
    }
    switch (m.method) {
      case NicehashMethod.NOTIFY: {
        const n = parseNotify(m.params);
        if (n instanceof EthError) {
          this.close(n.message);
          return;
        }
        // interned: lines that differ (an id, spacing) still give the sessions one string each
        n.jobId = intern(n.jobId);
        n.header = intern(n.header);
        n.seed = intern(n.seed);
        // only id-less notifications: a line with an id is not the same message twice
        if (m.id === null) notifyCache.set(line, n);
        this.onNotify(n);
        return;
      }
      case NicehashMethod.SET_DIFFICULTY: {
        const d = parseDifficulty(m.params);
        if (d !== null) this.nextDifficulty = d;
        return;
      }
      case NicehashMethod.SET_EXTRANONCE: {
        // takes effect with the next notify: each job carries the prefix it was issued with
        const e = parseSetExtranonce(m.params);
        if (e !== null) this.extranonce = e;
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onEthproxyWork(result: unknown): void {
    const w = parseWork(result);
    if (w === null) return;
    // a repeated push of the work in force (a getWork answer crossing a push) is not new work
    if (this.work !== null && this.work.header === w.header && this.work.boundary === w.boundary) return;
    const header = intern(w.header);
    this.onJob({
      poolJobId: header,
      header,
      seed: intern(w.seed),
      difficulty: difficultyOfBoundary(w.boundary),
      boundary: w.boundary,
      extranonce: "",
      // ETHPROXY has no clean flag: a new seed or a different header always replaces the work
      clean: true,
    });
  }

  private onNotify(n: Notify): void {
    this.onJob({
      poolJobId: n.jobId,
      header: n.header,
      seed: n.seed,
      difficulty: this.nextDifficulty,
      boundary: null,
      extranonce: this.extranonce,
      clean: n.clean,
    });
  }

  private onJob(work: UpstreamWork): void {
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.work = work;
    this.handler.onWork(this, work);
  }

  private ready(): void {
    this.state = "ready";
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.handler.onSubscribed(this);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share": {
        const err =
          readPoolError(error) ?? (result === true ? null : new EthError(EthErrorCode.OTHER, "rejected"));
        p.ticket.onResult(err, performance.now() - p.sentAt);
        return;
      }
      case "login": {
        if (result !== true || readPoolError(error) !== null) {
          this.refused = true;
          this.close(`login refused: ${readPoolError(error)?.message ?? JSON.stringify(result)}`);
          return;
        }
        if (this.login !== null) this.authorized.add(this.login.user ?? "");
        this.ready();
        this.request({ kind: "work" }, EthproxyMethod.GET_WORK, []);
        return;
      }
      case "work":
        this.onEthproxyWork(result);
        return;
      case "subscribe": {
        const prefix = parseSubscribeResult(result);
        if (prefix === null || readPoolError(error) !== null) {
          this.close(`subscribe refused: ${JSON.stringify(error ?? result)}`);
          return;
        }
        this.extranonce = prefix;
        this.request({ kind: "ignore" }, NicehashMethod.EXTRANONCE_SUBSCRIBE, []);
        this.ready();
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
