/**
 * KaspaMinerSession: one connected Kaspa miner (a MovableMiner), an explicit state machine (connected
 * → subscribed → authorized → closed) that handles its lines strictly in order and sends shares to
 * the session that issued their job. The miner's prefix (the nonce's high bytes) is given with
 * mining.set_extranonce after authorize, as the bridges do; a later change (a move to a fee session,
 * a new pool session) is sent only to a miner that asked for changes with
 * mining.extranonce.subscribe. Errors on the share path are data, answered as [code, message, null].
 */
import { EthError, EthErrorCode } from "../ethereum/errors.ts";
import { intern } from "../intern.ts";
import {
  errorLine,
  numberLine,
  parsePositional,
  requestLine,
  resultLine,
  type StratumId,
} from "../message.ts";
import { hasId, MinerJobs, type SentJob } from "../miner-jobs.ts";
import { type Identity, MovableMiner, type Refusal } from "../movable-miner.ts";
import type { KaspaJob } from "./job.ts";
import type { Lane } from "./lane.ts";
import { parseLogin, parseSubmit, parseSubscribe } from "./messages.ts";
import {
  isBitmainAgent,
  KASPA_PROTOCOL,
  KaspaMethod,
  NONCE_HEX,
  type NotifyForm,
  notifyFormOf,
} from "./methods.ts";

export class KaspaMinerSession extends MovableMiner<Lane, KaspaJob, EthError> {
  form: NotifyForm = "u64";
  private bitmain = false;
  /** the prefix the miner holds; null until it was given one */
  prefix: string | null = null;
  extranonceSubscribed = false;
  private upstreamUser = "";
  protected readonly sent = new MinerJobs<KaspaJob>();
  private lastDifficulty = 0;

  protected answer(id: StratumId, result: unknown): void {
    this.out.write(resultLine(id, result));
  }

  protected refuse(id: StratumId, error: EthError): void {
    this.out.write(errorLine(id, error.wire("nicehash")));
  }

  protected refusal(kind: Refusal, message: string): EthError {
    return new EthError(kind === "other" ? EthErrorCode.OTHER : EthErrorCode.UNAUTHORIZED, message);
  }

  protected isStale(error: EthError): boolean {
    return error.code === EthErrorCode.STALE;
  }

  // ---- requests ----

  handleLine(line: string): void {
    const m = parsePositional(line);
    if (m === null) {
      this.strike(null, new EthError(EthErrorCode.OTHER, "malformed JSON"));
      return;
    }
    if (m.kind === "response") return;
    switch (m.method) {
      case KaspaMethod.SUBSCRIBE:
        if (this.state !== "connected") {
          this.strike(m.id, new EthError(EthErrorCode.OTHER, "already subscribed"));
          return;
        }
        this.subscribe(m.id, m.params);
        return;
      case KaspaMethod.EXTRANONCE_SUBSCRIBE:
        this.extranonceSubscribed = true;
        this.answer(m.id, true);
        return;
      case KaspaMethod.AUTHORIZE:
        this.authorize(m.id, m.params);
        return;
      case KaspaMethod.SUBMIT:
        this.submit(m.id, m.params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new EthError(EthErrorCode.OTHER, "unknown method"));
    }
  }

  /** mining.subscribe: the answer waits for the main session the miner will mine on. */
  private subscribe(id: StratumId, params: unknown[]): void {
    const agent = parseSubscribe(params);
    if (agent instanceof EthError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    this.form = notifyFormOf(agent);
    this.bitmain = isBitmainAgent(agent);
    this.subscribeOn(id, this.host.mainLane(this));
  }

  protected override subscribed(id: StratumId, lane: Lane, poolPrefix: string): void {
    this.state = "subscribed";
    if (this.bitmain) {
      // Bitmain firmware takes a prefix here; the set_extranonce after authorize confirms or corrects
      // it (an Efficient session learns its pool's prefix only then), as the bridges do
      const prefix = this.prefixOn(lane.shared, poolPrefix);
      this.answer(id, [null, prefix, NONCE_HEX / 2 - prefix.length / 2]);
    } else this.answer(id, [true, KASPA_PROTOCOL]);
  }

  private authorize(id: StratumId, params: unknown[]): void {
    const a = parseLogin(KaspaMethod.AUTHORIZE, params);
    if (a instanceof EthError) {
      this.strike(id, a);
      return;
    }
    if (this.state === "connected") {
      this.refuse(id, new EthError(EthErrorCode.NOT_SUBSCRIBED, "not subscribed"));
      return;
    }
    this.authorizeWorker(id, this.main as Lane, a.user, a.password);
  }

  protected admitted(who: Identity, lane: Lane): void {
    this.upstreamUser = who.upstreamUser;
    this.authorized(who, lane, this.canSetExtranonce());
  }

  private submit(id: StratumId, params: unknown[]): void {
    const s = parseSubmit(params);
    if (s instanceof EthError) {
      this.strike(id, s);
      return;
    }
    if (this.state !== "authorized") {
      this.refuse(id, new EthError(EthErrorCode.UNAUTHORIZED, "unauthorized worker"));
      return;
    }
    const sent = this.sent.find(s.jobId, hasId);
    if (sent === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", new EthError(EthErrorCode.STALE, "job not found"));
      return;
    }
    const nonce = fullNonce(s.nonce, sent.prefix);
    if (nonce === null) {
      const outside = new EthError(EthErrorCode.OTHER, "nonce outside the extranonce");
      this.localVerdict(id, "invalid", outside);
      this.countStrike(outside);
      return;
    }
    this.send(id, sent, nonce);
  }

  /**
   * The checks passed: the share goes to the session that issued its job, as the miner's worker (a
   * shared lane's own) or, with Compatible-style fee, a fee wallet's.
   */
  private send(id: StratumId, sent: SentJob<KaspaJob>, nonce: string): void {
    const job = sent.job;
    const work = job.difficulty * this.host.factor;
    const feeWorker = this.feeWorker(work, job.upstream.authorized);
    const ticket = this.shareTicket(id, feeWorker?.key ?? job.origin.target, work);
    job.upstream.submit(feeWorker?.user ?? job.origin.user ?? this.upstreamUser, job.work, nonce, ticket);
  }

  // ---- jobs ----

  onLaneJob(lane: Lane, job: KaspaJob): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job);
  }

  /** A new session's prefix comes with its first job (sendJob tells the miner then). */
  onLaneSession(): void {}

  private canSetExtranonce(): boolean {
    return this.extranonceSubscribed && this.host.config.setting.cut !== 1;
  }

  protected sendJob(job: KaspaJob): void {
    const prefix = this.prefixOn(job.origin.shared, job.work.extranonce);
    if (prefix !== this.prefix) {
      // the first prefix is how every Kaspa miner learns its extranonce; changes need consent
      if (this.prefix !== null && !this.canSetExtranonce()) {
        this.close("the miner cannot take a new extranonce");
        return;
      }
      if (this.prefix !== null || prefix !== "") {
        const params = this.bitmain ? [prefix, NONCE_HEX / 2 - prefix.length / 2] : [prefix];
        this.out.write(requestLine(null, KaspaMethod.SET_EXTRANONCE, params));
      }
      this.prefix = prefix;
    }
    if (job.difficulty !== this.lastDifficulty) {
      this.lastDifficulty = job.difficulty;
      this.out.write(numberLine(KaspaMethod.SET_DIFFICULTY, job.difficulty));
    }
    job.writeNotify(this.out, this.form);
    this.sent.add(job, prefix);
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }
}

/**
 * The full 16-hex nonce of a share mined under `prefix`, or null when it lies outside the prefix.
 * Miners send the whole u64 (the prefix as its high bytes) or, like some bridges accept, only the
 * part after the prefix.
 */
export function fullNonce(sentNonce: string, prefix: string): string | null {
  if (sentNonce.length === NONCE_HEX) return sentNonce.startsWith(prefix) ? sentNonce : null;
  if (prefix === "") return sentNonce.padStart(NONCE_HEX, "0");
  if (sentNonce.length > NONCE_HEX - prefix.length) return null;
  return prefix + sentNonce.padStart(NONCE_HEX - prefix.length, "0");
}
