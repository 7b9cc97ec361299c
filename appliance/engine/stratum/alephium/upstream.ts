/**
 * AlphUpstream: one session to an Alephium pool (protocols.md §E). It subscribes, authorizes its one
 * user, and takes what the reference pool pushes: mining.set_difficulty (for the notifies after it),
 * mining.set_extranonce (after the authorize answer; the prefix of every nonce from then on) and
 * mining.notify with block templates. The reference pool broadcasts notifies to every connection,
 * logged in or not, so work before the login is kept and handed on once the session is ready.
 * It knows nothing of miners; its Lane decides what to do with work and closures.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { LineCache } from "../intern.ts";
import { parseMessage } from "../message.ts";
import { answerClosed, PoolSession } from "../pool-session.ts";
import { AlphError, AlphErrorCode, readVerdict } from "./errors.ts";
import { type PoolJob, parseDifficulty, parseNotify, parseSetExtranonce } from "./messages.ts";
import { AlphMethod } from "./methods.ts";

/** Work as the pool sent it, with the session terms in force when it arrived. */
export interface UpstreamWork {
  templates: PoolJob[];
  difficulty: number;
  extranonce: string;
}

export interface ShareTicket {
  onResult(error: AlphError | null, latencyMs: number): void;
}

export interface UpstreamHandler {
  onReady(u: AlphUpstream): void;
  onWork(u: AlphUpstream, work: UpstreamWork): void;
  /** `healthy`: the session had delivered work; `refused`: the pool answered but refused the login */
  onClosed(u: AlphUpstream, reason: string, healthy: boolean, refused: boolean): void;
}

/**
 * The reference pool broadcasts the same notify line to every connection, and its templates are
 * never modified after parsing (job.ts joins their JSON into each miner's line), so sessions
 * share one parse: in Efficient mode, where every miner has a session of its own, each would
 * otherwise keep its own copy of every template's header and transaction blobs.
 */
const notifyCache = new LineCache<PoolJob[]>(64);

/** Shared by the sessions of a port that present the same agent (stratum/agent-options.ts). */
export interface UpstreamOptions {
  readonly agent: string;
  readonly connectTimeoutMs: number;
  readonly jobTimeoutMs: number;
}

/** Who a session logs in as: its lane, which keeps the login across its sessions. */
export interface SessionLogin {
  readonly user: string;
  readonly password: string;
}

type Pending =
  | { kind: "share"; ticket: ShareTicket; sentAt: number }
  | { kind: "subscribe" }
  | { kind: "authorize" };

const NO_JOB = "no job from pool in time";

export class AlphUpstream extends PoolSession<Pending> {
  extranonce = "";
  work: UpstreamWork | null = null;
  private difficulty = 1;
  private jobs = 0;
  private refused = false;

  constructor(
    endpoint: Endpoint,
    readonly opts: UpstreamOptions,
    private readonly login: SessionLogin,
    private readonly handler: UpstreamHandler,
  ) {
    super(endpoint, opts.connectTimeoutMs);
  }

  protected hello(): void {
    this.request({ kind: "subscribe" }, AlphMethod.SUBSCRIBE, [this.opts.agent]);
    this.request({ kind: "authorize" }, AlphMethod.AUTHORIZE, [this.login.user, this.login.password]);
  }

  /** Sends a share under the session's user; `nonce` is the full 24-byte nonce in hex. */
  submit(template: PoolJob, nonce: string, ticket: ShareTicket): void {
    if (this.state !== "ready") {
      ticket.onResult(new AlphError(AlphErrorCode.JOB_NOT_FOUND, "upstream session closed"), 0);
      return;
    }
    if (!this.hasRoom()) {
      ticket.onResult(new AlphError(AlphErrorCode.OTHER, "pool is not answering"), 0);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: "share", ticket, sentAt: performance.now() });
    const params = {
      jobId: template.poolJobId,
      fromGroup: template.fromGroup,
      toGroup: template.toGroup,
      nonce,
      worker: this.login.user,
    };
    this.writer?.write(`{"id":${id},"method":"${AlphMethod.SUBMIT}","params":${JSON.stringify(params)}}\n`);
  }

  protected ended(reason: string): void {
    if (this.pending.size > 0)
      this.pending.each(answerClosed, new AlphError(AlphErrorCode.JOB_NOT_FOUND, "upstream session closed"));
    this.handler.onClosed(this, reason, this.jobs > 0 && reason !== NO_JOB, this.refused);
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const known = notifyCache.get(line);
    if (known !== undefined) {
      this.onJob({ templates: known, difficulty: this.difficulty, extranonce: this.extranonce });
      return;
    }
    const m = parseMessage(line);
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
      case AlphMethod.NOTIFY: {
        const templates = parseNotify(m.params);
        if (templates === null) {
          this.close("malformed mining.notify from pool");
          return;
        }
        // only id-less notifications are cached: a line with an id is not the same message twice
        if (m.id === null) notifyCache.set(line, templates);
        this.onJob({ templates, difficulty: this.difficulty, extranonce: this.extranonce });
        return;
      }
      case AlphMethod.SET_DIFFICULTY: {
        const d = parseDifficulty(m.params);
        if (d !== null) this.difficulty = d;
        return;
      }
      case AlphMethod.SET_EXTRANONCE: {
        const e = parseSetExtranonce(m.params);
        if (e === null) {
          this.close("malformed mining.set_extranonce from pool");
          return;
        }
        this.extranonce = e;
        // the reference pool sends it right after the authorize answer and before the next notify:
        // the work in force is re-issued under the new prefix rather than mined under the old one
        if (this.work !== null) this.onJob({ ...this.work, extranonce: e });
        return;
      }
      default:
        this.answerUnsupported(m.id);
    }
  }

  private onJob(work: UpstreamWork): void {
    this.work = work;
    if (this.state !== "ready") return;
    this.jobs++;
    if (this.retiring !== null) return;
    this.arm(this.opts.jobTimeoutMs, NO_JOB);
    this.handler.onWork(this, work);
  }

  private onResponse(p: Pending, result: unknown, error: unknown): void {
    switch (p.kind) {
      case "share":
        p.ticket.onResult(readVerdict(result, error), performance.now() - p.sentAt);
        return;
      case "subscribe":
        // the reference pool answers "result"; only an error refuses
        if (error !== null && error !== undefined) this.close(`subscribe refused: ${JSON.stringify(error)}`);
        return;
      case "authorize": {
        const refusal = readVerdict(result, error);
        if (refusal !== null) {
          this.refused = true;
          this.close(`login refused: ${refusal.message}`);
          return;
        }
        this.state = "ready";
        this.arm(this.opts.jobTimeoutMs, NO_JOB);
        this.handler.onReady(this);
        if (this.work !== null) this.onJob(this.work);
      }
    }
  }
}
