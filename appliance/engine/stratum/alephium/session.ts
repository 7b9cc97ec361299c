/**
 * AlphMinerSession: one connected Alephium miner (a MovableMiner), an explicit state machine
 * (connected → subscribed → authorized → closed) that handles its lines strictly in order and sends
 * each share to the session that issued its job. Errors on the share path are data, answered as
 * [code, message, null].
 *
 * A miner is moved between pool sessions by mining.set_extranonce (the new session's prefix, with
 * the miner's slot byte on a shared session), mining.set_difficulty and that session's notify; every
 * Alephium miner takes mining.set_extranonce, which the reference pool itself sends after the login.
 */
import { intern } from "../intern.ts";
import { numberLine, parseMessage, requestLine, type StratumId, type StratumParams } from "../message.ts";
import { MinerJobs } from "../miner-jobs.ts";
import { type Identity, MovableMiner, type Refusal } from "../movable-miner.ts";
import { AlphError, AlphErrorCode, STALE_JOB } from "./errors.ts";
import type { AlphJob } from "./job.ts";
import type { Lane } from "./lane.ts";
import { parseAuthorize, parseSubmit, parseSubscribe } from "./messages.ts";
import { AlphMethod } from "./methods.ts";

const holdsTemplate = (job: AlphJob, jobId: string): boolean => job.template(jobId) !== undefined;

export class AlphMinerSession extends MovableMiner<Lane, AlphJob, AlphError> {
  /** the extranonce the miner holds now */
  prefix = "";
  protected readonly sent = new MinerJobs<AlphJob>();
  private lastDifficulty = 0;

  protected answer(id: StratumId, result: unknown): void {
    this.out.write(`${JSON.stringify({ id, result, error: null })}\n`);
  }

  protected refuse(id: StratumId, error: AlphError): void {
    this.out.write(`${JSON.stringify({ id, result: null, error: [error.code, error.message, null] })}\n`);
  }

  protected refusal(kind: Refusal, message: string): AlphError {
    return new AlphError(kind === "other" ? AlphErrorCode.OTHER : AlphErrorCode.INVALID_WORKER, message);
  }

  protected isStale(error: AlphError): boolean {
    return error.stale;
  }

  // ---- requests ----

  handleLine(line: string): void {
    const m = parseMessage(line);
    if (m === null) {
      this.strike(null, new AlphError(AlphErrorCode.OTHER, "malformed JSON"));
      return;
    }
    if (m.kind === "response") return;
    switch (m.method) {
      case AlphMethod.SUBSCRIBE:
        this.agent = intern(parseSubscribe(m.params));
        if (this.state === "connected") this.state = "subscribed";
        // the reference pool's answer, word for word: miners only wait for it
        this.answer(m.id, "result");
        return;
      case AlphMethod.AUTHORIZE:
        this.authorize(m.id, m.params);
        return;
      case AlphMethod.SUBMIT:
        this.submit(m.id, m.params);
        return;
      case AlphMethod.SUBMIT_HASHRATE:
        this.answer(m.id, true);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new AlphError(AlphErrorCode.OTHER, "unknown method"));
    }
  }

  /** mining.authorize: the answer waits for the pool session the miner will mine on. */
  private authorize(id: StratumId, params: StratumParams): void {
    const a = parseAuthorize(params);
    if (a instanceof AlphError) {
      this.strike(id, a);
      return;
    }
    if (this.state === "authorized") {
      // one worker per connection: further names mine under the first
      this.answer(id, true);
      return;
    }
    const who = this.identify(id, a.user);
    if (who === null) return;
    this.loginOn(id, who, this.host.mainLane(this, { user: who.upstreamUser, password: a.password }));
  }

  protected admitted(who: Identity, lane: Lane): void {
    // every miner takes mining.set_extranonce, so every miner can be moved for fee
    this.authorized(who, lane, true);
  }

  /** mining.submit: checks in a fixed order, then the share goes to the session that issued its job. */
  private submit(id: StratumId, params: StratumParams): void {
    if (this.state !== "authorized") {
      this.refuse(id, new AlphError(AlphErrorCode.INVALID_WORKER, "unauthorized worker"));
      return;
    }
    const s = parseSubmit(params);
    if (s instanceof AlphError) {
      this.localVerdict(id, "invalid", s);
      this.countStrike(s);
      return;
    }
    // the newest job holding a template with this id
    const sent = this.sent.find(s.jobId, holdsTemplate);
    const template = sent?.job.template(s.jobId);
    if (sent === undefined || template === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", STALE_JOB());
      return;
    }
    if (s.fromGroup !== template.fromGroup || s.toGroup !== template.toGroup) {
      this.localVerdict(
        id,
        "invalid",
        new AlphError(AlphErrorCode.INVALID_JOB_CHAIN_INDEX, "invalid job chain index"),
      );
      return;
    }
    // shares outside the miner's prefix would collide with another miner's on a shared session
    if (!s.nonce.startsWith(sent.prefix)) {
      const outside = new AlphError(AlphErrorCode.INVALID_NONCE, "nonce outside the miner's extranonce");
      this.localVerdict(id, "invalid", outside);
      this.countStrike(outside);
      return;
    }
    const job = sent.job;
    const ticket = this.shareTicket(id, job.origin.target, job.difficulty * this.host.factor);
    job.upstream.submit(template, s.nonce, ticket);
  }

  // ---- jobs ----

  onLaneJob(lane: Lane, job: AlphJob): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job);
  }

  /** The job, preceded by the session's prefix and difficulty when they differ from the miner's. */
  protected sendJob(job: AlphJob): void {
    const prefix = this.prefixOn(job.origin.shared, job.extranonce);
    if (prefix !== this.prefix || this.sent.size === 0) {
      this.prefix = prefix;
      this.out.write(requestLine(null, AlphMethod.SET_EXTRANONCE, [prefix]));
    }
    if (job.difficulty !== this.lastDifficulty) {
      this.lastDifficulty = job.difficulty;
      this.out.write(numberLine(AlphMethod.SET_DIFFICULTY, job.difficulty));
    }
    this.out.write(job.notifyLine());
    this.sent.add(job, prefix);
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }
}
