/**
 * EthMinerSession: one connected Ethereum miner (a MovableMiner). The dialect is told by its first request
 * (eth_submitLogin → ETHPROXY, mining.subscribe with "EthereumStratum/1.0.0" → NiceHash); from then
 * on the session is an explicit state machine (connected → subscribed → authorized → closed) that
 * handles its lines strictly in order and sends shares to the session that issued their job.
 * Errors on the share path are data, answered in the miner's dialect.
 */
import { intern } from "../intern.ts";
import { numberLine, parsePositional, requestLine, type StratumId } from "../message.ts";
import { hasId, MinerJobs, type SentJob } from "../miner-jobs.ts";
import { type Identity, MovableMiner, type Refusal } from "../movable-miner.ts";
import { EthError, EthErrorCode } from "./errors.ts";
import type { EthJob } from "./job.ts";
import type { Lane } from "./lane.ts";
import {
  parseLogin,
  parseNicehashSubmit,
  parseNicehashSubscribe,
  parseSubmitHashrate,
  parseSubmitWork,
} from "./messages.ts";
import { type Dialect, EthproxyMethod, NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";
import type { EthUpstream } from "./upstream.ts";

let nextMinerId = 1;

const hasHeader = (job: EthJob, header: string): boolean => job.work.header === header;

export class EthMinerSession extends MovableMiner<Lane, EthJob, EthError> {
  readonly id = nextMinerId++;
  dialect: Dialect | null = null;
  /** how to answer a miner whose dialect is not known yet: by the shape of its request */
  private guess: Dialect = "nicehash";
  /** ES1: the extranonce prefix the miner holds now */
  prefix = "";
  extranonceSubscribed = false;
  private upstreamUser = "";
  protected readonly sent = new MinerJobs<EthJob>();
  private lastDifficulty = 0;

  // ---- writing in the miner's dialect ----

  protected answer(id: StratumId, result: unknown): void {
    this.out.write(
      (this.dialect ?? this.guess) === "ethproxy"
        ? `${JSON.stringify({ id, jsonrpc: "2.0", result })}\n`
        : `${JSON.stringify({ id, result, error: null })}\n`,
    );
  }

  protected refuse(id: StratumId, error: EthError): void {
    const dialect = this.dialect ?? this.guess;
    const wire = error.wire(dialect);
    this.out.write(
      dialect === "ethproxy"
        ? `${JSON.stringify({ id, jsonrpc: "2.0", result: false, error: wire })}\n`
        : `${JSON.stringify({ id, result: null, error: wire })}\n`,
    );
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
    if (this.dialect === null) {
      this.guess = m.method.startsWith("eth_") ? "ethproxy" : "nicehash";
      if (m.method === EthproxyMethod.SUBMIT_LOGIN) this.dialect = "ethproxy";
      else if (m.method === NicehashMethod.SUBSCRIBE && m.params[1] === NICEHASH_PROTOCOL)
        this.dialect = "nicehash";
    }
    const params = m.params;
    switch (m.method) {
      case EthproxyMethod.SUBMIT_LOGIN:
        if (this.dialect !== "ethproxy" || this.state !== "connected") {
          this.strike(m.id, new EthError(EthErrorCode.OTHER, "unexpected login"));
          return;
        }
        this.login(m.id, params, m.worker ?? null);
        return;
      case EthproxyMethod.GET_WORK:
        this.getWork(m.id);
        return;
      case EthproxyMethod.SUBMIT_WORK:
        if (this.dialect !== "ethproxy") {
          this.strike(m.id, this.notLoggedIn());
          return;
        }
        this.submitWork(m.id, params);
        return;
      case EthproxyMethod.SUBMIT_HASHRATE:
        this.submitHashrate(m.id, params);
        return;
      case NicehashMethod.SUBSCRIBE:
        if (this.dialect !== "nicehash" || this.state !== "connected") {
          this.strike(m.id, new EthError(EthErrorCode.OTHER, "unsupported protocol"));
          return;
        }
        this.subscribe(m.id, params);
        return;
      case NicehashMethod.EXTRANONCE_SUBSCRIBE:
        if (this.dialect !== "nicehash") {
          this.strike(m.id, this.notLoggedIn());
          return;
        }
        this.extranonceSubscribed = true;
        this.answer(m.id, true);
        return;
      case NicehashMethod.AUTHORIZE:
        if (this.dialect !== "nicehash") {
          this.strike(m.id, new EthError(EthErrorCode.NOT_SUBSCRIBED, "not subscribed"));
          return;
        }
        this.authorize(m.id, params);
        return;
      case NicehashMethod.SUBMIT:
        if (this.dialect !== "nicehash") {
          this.strike(m.id, this.notLoggedIn());
          return;
        }
        this.submitNicehash(m.id, params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new EthError(EthErrorCode.OTHER, "unknown method"));
    }
  }

  private notLoggedIn(): EthError {
    return new EthError(EthErrorCode.UNAUTHORIZED, "not logged in");
  }

  /** ETHPROXY eth_submitLogin: the miner's own session logs in as the rewritten user first. */
  private login(id: StratumId, params: unknown[], worker: string | null): void {
    const l = parseLogin(EthproxyMethod.SUBMIT_LOGIN, params);
    if (l instanceof EthError) {
      this.strike(id, l);
      return;
    }
    // the rig is "wallet.rig" in the login or, for miners like Claymore, the top-level worker
    const user = worker !== null && !l.user.includes(".") ? `${l.user}.${worker}` : l.user;
    const who = this.identify(id, user);
    if (who === null) return;
    this.loginOn(id, who, this.host.mainLane(this, { user: who.upstreamUser, password: l.password }));
  }

  /** ES1 mining.subscribe: the answer waits for the session whose prefix the miner will mine under. */
  private subscribe(id: StratumId, params: unknown[]): void {
    const agent = parseNicehashSubscribe(params);
    if (agent instanceof EthError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    this.subscribeOn(id, this.host.mainLane(this, null));
  }

  protected override subscribed(id: StratumId, lane: Lane, poolPrefix: string): void {
    this.prefix = this.prefixOn(lane.shared, poolPrefix);
    this.state = "subscribed";
    const sid = this.id.toString(16).padStart(8, "0");
    this.answer(id, [[NicehashMethod.NOTIFY, sid, NICEHASH_PROTOCOL], this.prefix]);
  }

  private authorize(id: StratumId, params: unknown[]): void {
    const a = parseLogin(NicehashMethod.AUTHORIZE, params);
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

  /** ETHPROXY's login on the miner's own session, or ES1's worker. */
  protected admitted(who: Identity, lane: Lane): void {
    this.upstreamUser = who.upstreamUser;
    this.authorized(who, lane, this.movable());
  }

  /** ETHPROXY miners are moved by sending them other work; ES1 miners need mining.set_extranonce. */
  private movable(): boolean {
    return this.dialect === "ethproxy" || this.canSetExtranonce();
  }

  /** Compatible-style fee: the fee workers are authorized on the miner's own ES1 session. */
  protected override authorizeFeeWorkers(main: Lane): void {
    if (main.dialect === "nicehash") super.authorizeFeeWorkers(main);
  }

  private getWork(id: StratumId): void {
    if (this.dialect !== "ethproxy" || this.state !== "authorized") {
      this.strike(id, this.notLoggedIn());
      return;
    }
    const job = this.sent.last?.job ?? this.lane?.current ?? null;
    if (job === null) {
      this.refuse(id, new EthError(EthErrorCode.OTHER, "work not ready"));
      return;
    }
    this.out.write(job.workLine(id));
  }

  private submitHashrate(id: StratumId, params: unknown[]): void {
    if (this.dialect !== "ethproxy" || this.state !== "authorized") {
      this.strike(id, this.notLoggedIn());
      return;
    }
    const rate = parseSubmitHashrate(params);
    if (rate instanceof EthError) {
      this.strike(id, rate);
      return;
    }
    if (this.device !== null) this.device.localHashrate = rate;
    // the miner's own session passes the report on; a shared one speaks for many miners
    const u = this.main?.shared === false ? this.main.upstream : null;
    const rateHex = typeof params[0] === "string" ? params[0].replace(/^0x/i, "") : "";
    const idHex = typeof params[1] === "string" ? params[1].replace(/^0x/i, "") : "";
    if (u !== null && /^[0-9a-f]{1,64}$/i.test(rateHex) && /^[0-9a-f]{0,64}$/i.test(idHex))
      u.submitHashrate(rateHex.padStart(64, "0"), idHex);
    this.answer(id, true);
  }

  private submitWork(id: StratumId, params: unknown[]): void {
    const s = parseSubmitWork(params);
    if (s instanceof EthError) {
      this.strike(id, s);
      return;
    }
    if (this.state !== "authorized") {
      this.refuse(id, this.notLoggedIn());
      return;
    }
    // ETHPROXY names work by its header: the latest session that gave this miner the header
    const sent = this.sent.find(s.header, hasHeader);
    if (sent === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", new EthError(EthErrorCode.STALE, "job not found"));
      return;
    }
    this.send(id, sent, s.nonce, s.mix);
  }

  private submitNicehash(id: StratumId, params: unknown[]): void {
    const s = parseNicehashSubmit(params);
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
    const nonce = sent.prefix + s.minerNonce;
    if (nonce.length !== 16) {
      this.localVerdict(id, "invalid", new EthError(EthErrorCode.OTHER, "wrong nonce length"));
      return;
    }
    this.send(id, sent, nonce, "");
  }

  /**
   * The checks passed: the share goes to the session that issued its job, as the miner's worker (a
   * shared lane's own) or, with Compatible-style fee, a fee wallet's.
   */
  private send(id: StratumId, sent: SentJob<EthJob>, nonce: string, mix: string): void {
    const job = sent.job;
    const work = job.difficulty * this.host.factor;
    const feeWorker = this.feeWorker(work, job.upstream.authorized);
    const ticket = this.shareTicket(id, feeWorker?.key ?? job.origin.target, work);
    job.upstream.submit(
      feeWorker?.user ?? job.origin.user ?? this.upstreamUser,
      job.work,
      nonce,
      mix,
      ticket,
    );
  }

  /** A fee pool on another epoch would make the miner rebuild its DAG for every visit. */
  protected override feeLaneFits(want: string, job: EthJob): boolean {
    return this.sameEpoch(want, this.main?.current?.work.seed, job.work.seed);
  }

  // ---- jobs ----

  onLaneJob(lane: Lane, job: EthJob): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job, job.work.clean);
  }

  onLaneSession(lane: Lane, u: EthUpstream): void {
    // A new ES1 session of the miner's lane has a new prefix: sendJob gives it with the next job.
    if (lane !== this.lane || this.dialect !== "nicehash") return;
    if (this.prefixOn(lane.shared, u.extranonce) !== this.prefix && !this.canSetExtranonce())
      this.close("pool session changed and the miner cannot take a new extranonce");
  }

  private canSetExtranonce(): boolean {
    return this.extranonceSubscribed && this.host.config.setting.cut !== 1;
  }

  protected sendJob(job: EthJob, clean: boolean): void {
    if (this.dialect === "ethproxy") {
      this.out.write(job.workLine());
    } else {
      const prefix = this.prefixOn(job.origin.shared, job.work.extranonce);
      if (prefix !== this.prefix) {
        if (!this.canSetExtranonce()) {
          this.close("the miner cannot take a new extranonce");
          return;
        }
        this.prefix = prefix;
        this.out.write(requestLine(null, NicehashMethod.SET_EXTRANONCE, [prefix]));
      }
      if (job.difficulty !== this.lastDifficulty) {
        this.lastDifficulty = job.difficulty;
        this.out.write(numberLine(NicehashMethod.SET_DIFFICULTY, job.difficulty));
      }
      job.writeNotify(this.out, clean);
    }
    this.sent.add(job, this.prefix);
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }
}
