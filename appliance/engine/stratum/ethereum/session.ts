/**
 * EthMinerSession: one connected Ethereum miner. The dialect is told by its first request
 * (eth_submitLogin → ETHPROXY, mining.subscribe with "EthereumStratum/1.0.0" → NiceHash); from then
 * on the session is an explicit state machine (connected → subscribed → authorized → closed) that
 * handles its lines strictly in order and sends shares to the session that issued their job.
 * Errors on the share path are data, answered in the miner's dialect.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../../stats/work-split.ts";
import type { FeeSeat } from "../../fee/fee-group.ts";
import type { FeeScheduler } from "../../fee/scheduler.ts";
import { chooseFeeMode, type FeeMode, type ModeStrategy } from "../../modes/mode.ts";
import { joinUser, rewriteIdentity, splitUser } from "../../rewrite.ts";
import { type ByteSocket, LineWriter } from "../../transport/line-writer.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import { parsePositional, requestLine, type StratumId } from "../message.ts";
import { type IntakeOwner, MinerIntake } from "../miner-intake.ts";
import { hashrateProtected, shareAnswered, shareSent } from "../share-accounting.ts";
import { EthError, EthErrorCode } from "./errors.ts";
import { type EthJob, MinerJobs, type SentJob } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import {
  parseLogin,
  parseNicehashSubmit,
  parseNicehashSubscribe,
  parseSubmitHashrate,
  parseSubmitWork,
} from "./messages.ts";
import { type Dialect, EthproxyMethod, NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";
import type { EthUpstream, ShareTicket } from "./upstream.ts";

export type MinerState = "connected" | "subscribed" | "authorized" | "closed";

/** Malformed lines or unknown methods tolerated before the connection is closed. */
export const MAX_STRIKES = 20;

export interface MinerHost {
  readonly portId: number;
  readonly config: Port;
  readonly category: string;
  readonly factor: number;
  readonly mode: ModeStrategy;
  readonly registry: DeviceRegistry;
  readonly fee: FeeScheduler;
  readonly timing: EngineTiming;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /** logs a message once per key (the port's lifetime) */
  logOnce(key: string, level: LogLevel, message: string): void;
  /** the miner's own session (ETHPROXY: logged in as `login`), or its place on a shared main lane */
  mainLane(miner: EthMinerSession, login: { user: string; password: string } | null): Lane | null;
  /** the lane of a fee target in the miner's dialect holding its slot (opened on demand) */
  feeLane(miner: EthMinerSession, key: string): Lane | null;
  releaseMiner(miner: EthMinerSession): void;
}

const slotHex = (slot: number): string => slot.toString(16).padStart(2, "0");

class Share implements ShareTicket {
  constructor(
    readonly miner: EthMinerSession,
    readonly requestId: StratumId,
    readonly target: string,
    readonly work: number,
    readonly device: DeviceRecord,
    readonly ledger: WorkSplit,
  ) {}

  onResult(error: EthError | null, latencyMs: number): void {
    this.miner.onShareResult(this, error, latencyMs);
  }
}

let nextMinerId = 1;

export class EthMinerSession implements LaneMiner, MinerConnection, IntakeOwner {
  readonly id = nextMinerId++;
  state: MinerState = "connected";
  dialect: Dialect | null = null;
  /** how to answer a miner whose dialect is not known yet: by the shape of its request */
  private guess: Dialect = "nicehash";
  agent = "";
  /** ES1: the extranonce prefix the miner holds now */
  prefix = "";
  extranonceSubscribed = false;
  feeMode: FeeMode = "switch";
  lane: Lane | null = null;
  main: Lane | null = null;
  target = MAIN;
  readonly connectedAt = Date.now();
  private device: DeviceRecord | null = null;
  private upstreamUser = "";
  private seat: FeeSeat | null = null;
  private readonly sent = new MinerJobs();
  private lastDifficulty = 0;
  private strikes = 0;
  private loginTimer: ReturnType<typeof setTimeout> | null;
  private readonly intake: MinerIntake;
  private readonly out: LineWriter;

  constructor(
    private readonly host: MinerHost,
    socket: ByteSocket,
    readonly ip: string,
    readonly slot: number,
  ) {
    this.out = new LineWriter(socket);
    this.intake = new MinerIntake(this, host.timing.floodLinesPerSecond);
    this.loginTimer = setTimeout(() => this.close("login timeout"), host.timing.loginTimeoutMs);
  }

  onData(chunk: Uint8Array): void {
    this.intake.push(chunk);
  }

  onDrain(): void {
    this.out.drain();
  }

  get isClosed(): boolean {
    return this.state === "closed";
  }

  // ---- writing in the miner's dialect ----

  private answer(id: StratumId, result: unknown): void {
    this.out.write(
      (this.dialect ?? this.guess) === "ethproxy"
        ? `${JSON.stringify({ id, jsonrpc: "2.0", result })}\n`
        : `${JSON.stringify({ id, result, error: null })}\n`,
    );
  }

  private refuse(id: StratumId, error: EthError): void {
    const dialect = this.dialect ?? this.guess;
    const wire = error.wire(dialect);
    this.out.write(
      dialect === "ethproxy"
        ? `${JSON.stringify({ id, jsonrpc: "2.0", result: false, error: wire })}\n`
        : `${JSON.stringify({ id, result: null, error: wire })}\n`,
    );
  }

  private strike(id: StratumId, error: EthError): void {
    this.refuse(id, error);
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
  }

  // ---- requests ----

  handleLine(line: string): Promise<void> | undefined {
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
        return this.login(m.id, params, m.worker ?? null);
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
        return this.subscribe(m.id, params);
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
        return this.authorize(m.id, params);
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

  /** Device record, ban check and the upstream name; null when refused (answered already). */
  private identify(
    id: StratumId,
    user: string,
  ): { upstreamUser: string; wallet: string; name: string } | null {
    const split = splitUser(user);
    const original = { wallet: intern(split.wallet), name: split.name };
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.refuse(id, new EthError(EthErrorCode.UNAUTHORIZED, "wallet banned"));
      this.close("banned wallet");
      return null;
    }
    const upstreamUser = intern(joinUser(rewriteIdentity(original, this.host.config)));
    return { upstreamUser, wallet: original.wallet, name: original.name };
  }

  /** ETHPROXY eth_submitLogin: the miner's own session logs in as the rewritten user first. */
  private async login(id: StratumId, params: unknown[], worker: string | null): Promise<void> {
    const l = parseLogin(EthproxyMethod.SUBMIT_LOGIN, params);
    if (l instanceof EthError) {
      this.strike(id, l);
      return;
    }
    // the rig is "wallet.rig" in the login or, for miners like Claymore, the top-level worker
    const user = worker !== null && !l.user.includes(".") ? `${l.user}.${worker}` : l.user;
    const who = this.identify(id, user);
    if (who === null) return;
    const lane = this.host.mainLane(this, { user: who.upstreamUser, password: l.password });
    if (lane === null) {
      this.refuse(id, new EthError(EthErrorCode.OTHER, "no pool configured"));
      this.close("no pool configured");
      return;
    }
    this.main = lane;
    const ok = await lane.whenSubscribed(this.host.timing.connectTimeoutMs * 2);
    if ((this.state as MinerState) === "closed") return;
    if (!ok) {
      const why = lane.refusal ?? "pool unavailable";
      this.refuse(
        id,
        new EthError(lane.refusal === null ? EthErrorCode.OTHER : EthErrorCode.UNAUTHORIZED, why),
      );
      this.close(`${why} at login`);
      return;
    }
    this.answer(id, true);
    this.authorized(who.upstreamUser, who.wallet, who.name, lane);
  }

  /** ES1 mining.subscribe: the answer waits for the session whose prefix the miner will mine under. */
  private async subscribe(id: StratumId, params: unknown[]): Promise<void> {
    const agent = parseNicehashSubscribe(params);
    if (agent instanceof EthError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    const lane = this.host.mainLane(this, null);
    if (lane === null) {
      this.refuse(id, new EthError(EthErrorCode.OTHER, "no pool configured"));
      this.close("no pool configured");
      return;
    }
    this.main = lane;
    const ok = await lane.whenSubscribed(this.host.timing.connectTimeoutMs * 2);
    const u = lane.upstream;
    if ((this.state as MinerState) === "closed") return;
    if (!ok || u === null) {
      this.refuse(id, new EthError(EthErrorCode.OTHER, "pool unavailable"));
      this.close("pool unavailable at subscribe");
      return;
    }
    this.prefix = this.prefixOn(lane.shared, u.extranonce);
    this.state = "subscribed";
    const sid = this.id.toString(16).padStart(8, "0");
    this.answer(id, [[NicehashMethod.NOTIFY, sid, NICEHASH_PROTOCOL], this.prefix]);
  }

  private async authorize(id: StratumId, params: unknown[]): Promise<void> {
    const a = parseLogin(NicehashMethod.AUTHORIZE, params);
    if (a instanceof EthError) {
      this.strike(id, a);
      return;
    }
    if (this.state === "connected") {
      this.refuse(id, new EthError(EthErrorCode.NOT_SUBSCRIBED, "not subscribed"));
      return;
    }
    if (this.state === "authorized") {
      // one worker per connection: further names mine under the first
      this.answer(id, true);
      return;
    }
    const who = this.identify(id, a.user);
    if (who === null) return;
    const lane = this.main as Lane;
    if (!lane.shared) {
      const ok = await lane.addUser(who.upstreamUser, a.password);
      if ((this.state as MinerState) === "closed") return;
      if (!ok) {
        this.refuse(id, new EthError(EthErrorCode.UNAUTHORIZED, "pool refused the worker"));
        return;
      }
    }
    this.answer(id, true);
    this.authorized(who.upstreamUser, who.wallet, who.name, lane);
  }

  private authorized(upstreamUser: string, wallet: string, name: string, lane: Lane): void {
    const now = Date.now();
    const device = this.host.registry.connect(
      this.host.portId,
      wallet,
      name,
      this.ip,
      this.host.category,
      now,
    );
    device.upstreamUser = upstreamUser;
    device.agent = this.agent;
    this.device = device;
    this.upstreamUser = upstreamUser;
    this.state = "authorized";
    if (this.loginTimer) clearTimeout(this.loginTimer);
    this.loginTimer = null;
    // ETHPROXY miners are moved by sending them other work; ES1 miners need mining.set_extranonce
    const movable =
      this.dialect === "ethproxy" || (this.extranonceSubscribed && this.host.config.setting.cut !== 1);
    this.feeMode = chooseFeeMode(
      this.host.mode,
      movable,
      this.ip,
      this.host.fee.targets.length > 0,
      (level, message) => this.host.log(level, message),
      "no mining.extranonce.subscribe",
    );
    this.seat = this.host.fee.seat(device, this);
    this.refreshFee();
    this.moveTo(lane, MAIN);
  }

  /** Fee wallets changed (or the miner just logged in). */
  refreshFee(): void {
    const d = this.device;
    if (d === null) return;
    d.feeRatio = this.host.fee.configuredFor(d);
    if (this.seat !== null) this.host.fee.regroup(this.seat);
    // Compatible-style fee: the fee workers are authorized on the miner's own ES1 session
    if (this.feeMode === "share" && this.main !== null && this.main.dialect === "nicehash")
      for (const t of this.host.fee.targets) if (t.ratio > 0) void this.main.addUser(t.user, "x");
    if (this.target !== MAIN && this.host.fee.target(this.target) === undefined && this.main)
      this.moveTo(this.main, MAIN);
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
    const sent = this.sent.byHeader(s.header);
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
    const sent = this.sent.byId(s.jobId);
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

  /** The checks passed: count the share in flight and send it to the session that issued its job. */
  private send(id: StratumId, sent: SentJob, nonce: string, mix: string): void {
    const job = sent.job;
    const work = job.difficulty * this.host.factor;
    let target = job.origin.target;
    let user = job.origin.user ?? this.upstreamUser;
    const seat = this.seat as FeeSeat;
    const fee = this.host.fee;
    if (this.feeMode === "share" && fee.targets.length > 0 && !this.isProtected()) {
      const pick = seat.group.pickForShare(work);
      const feeUser = pick === MAIN ? undefined : fee.target(pick)?.user;
      if (feeUser !== undefined && job.upstream.authorized.has(feeUser)) {
        target = pick;
        user = feeUser;
      }
    }
    const device = this.device as DeviceRecord;
    const ledger = shareSent(fee, seat, device, target, work);
    job.upstream.submit(user, job.work, nonce, mix, new Share(this, id, target, work, device, ledger));
  }

  private localVerdict(id: StratumId, outcome: ShareOutcome, error: EthError): void {
    if (this.device !== null) this.host.registry.result(this.device, outcome, MAIN, 0, 0, false, Date.now());
    if (this.host.config.setting.fr === 1) this.answer(id, true);
    else this.refuse(id, error);
  }

  onShareResult(share: Share, error: EthError | null, latencyMs: number): void {
    const outcome: ShareOutcome =
      error === null ? "valid" : error.code === EthErrorCode.STALE ? "stale" : "invalid";
    shareAnswered(this.host.registry, share, outcome, latencyMs, !this.isProtected());
    if (this.state === "closed") return;
    if (error === null || this.host.config.setting.fr === 1) this.answer(share.requestId, true);
    else this.refuse(share.requestId, error);
    this.evaluate();
  }

  /** Hashrate protection (setting.lj), as in docs/engine.md. */
  isProtected(): boolean {
    return hashrateProtected(
      this.host.config,
      this.host.timing,
      this.connectedAt,
      this.main?.sessionSince ?? null,
    );
  }

  reconsider(): void {
    this.evaluate();
  }

  /** After each answered share: move to the source the fee scheduler wants. */
  evaluate(): void {
    if (this.feeMode !== "switch" || this.state !== "authorized") return;
    const seat = this.seat;
    if (seat === null || this.main === null) return;
    const fee = this.host.fee;
    if (fee.targets.length === 0 && this.target === MAIN) return;
    const protect = this.isProtected();
    seat.group.setActive(seat, !protect, fee.now());
    const want = protect ? MAIN : fee.decide(seat);
    if (want === this.target) return;
    if (want === MAIN) {
      this.moveTo(this.main, MAIN);
      return;
    }
    const lane = this.host.feeLane(this, want);
    if (lane === null) return;
    if (lane.current === null) {
      lane.waiting.add(this);
      return;
    }
    // A fee pool on another epoch would make the miner rebuild its DAG for every visit.
    const mainSeed = this.main.current?.work.seed;
    if (mainSeed !== undefined && lane.current.work.seed !== mainSeed) {
      this.host.logOnce(
        `epoch:${want}:${lane.current.work.seed}`,
        "warn",
        `fee wallet ${fee.target(want)?.addr ?? want}: its pool mines another epoch (seed ${lane.current.work.seed.slice(0, 16)}…, main ${mainSeed.slice(0, 16)}…); not used`,
      );
      return;
    }
    this.moveTo(lane, want);
  }

  private moveTo(lane: Lane, target: string): void {
    if (this.lane !== lane) {
      if (this.lane !== null) {
        this.lane.miners.delete(this);
        this.lane.lastActive = Date.now();
      }
      lane.waiting.delete(this);
      lane.miners.add(this);
      this.lane = lane;
    }
    if (this.seat !== null) this.seat.group.moved(this.seat, target, this.host.fee.now());
    this.target = target;
    if (this.device) this.device.mining = target;
    if (lane.current !== null) this.sendJob(lane.current, true);
  }

  /** The prefix this miner mines under on a (shared) session whose own prefix is `poolPrefix`. */
  private prefixOn(shared: boolean, poolPrefix: string): string {
    return shared ? poolPrefix + slotHex(this.slot) : poolPrefix;
  }

  onLaneJob(lane: Lane, job: EthJob): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job, job.work.clean);
  }

  onLaneReady(lane: Lane): void {
    lane.waiting.delete(this);
    if (this.state === "authorized" && this.lane !== lane) this.evaluate();
  }

  onLaneDown(lane: Lane): void {
    if (lane === this.lane && this.main !== null && lane !== this.main && this.state === "authorized")
      this.moveTo(this.main, MAIN);
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

  private sendJob(job: EthJob, clean: boolean): void {
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
        this.out.write(requestLine(null, NicehashMethod.SET_DIFFICULTY, [job.difficulty]));
      }
      this.out.write(job.notifyLine(clean));
    }
    this.sent.add(job, this.prefix);
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    const wasAuthorized = this.state === "authorized";
    this.state = "closed";
    if (this.loginTimer) clearTimeout(this.loginTimer);
    this.loginTimer = null;
    this.intake.clear();
    this.sent.clear();
    this.lane?.miners.delete(this);
    this.lane = null;
    if (this.main !== null && !this.main.shared) this.main.close();
    if (this.seat !== null) this.host.fee.release(this.seat);
    this.host.releaseMiner(this);
    if (this.device !== null) this.host.registry.disconnect(this.device, Date.now());
    if (!wasAuthorized || reason !== "miner closed the connection")
      this.host.log(wasAuthorized ? "info" : "warn", `miner ${this.ip} closed: ${reason}`);
    this.out.close();
  }
}
