/**
 * EqMinerSession: one connected Equihash miner, an explicit state machine (connected → subscribed →
 * authorized → closed) that handles its lines strictly in order and sends each share to the session
 * that issued its job. Checks before a share goes up, in this order: authorized, job known and its
 * session alive, NONCE_2 exactly the length left by the NONCE_1 the job was sent under, the
 * solution's length for the port's coin, share not sent before for the job. A shared session's
 * share goes up with the miner's slot byte in front of its NONCE_2. Errors on the share path are
 * data ([code, message, null]).
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
import { ErrorCode, StratumError } from "../bitcoin/errors.ts";
import { parseAuthorize } from "../bitcoin/messages.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import { errorLine, parsePositional, requestLine, resultLine, type StratumId } from "../message.ts";
import { type IntakeOwner, MinerIntake } from "../miner-intake.ts";
import { hashrateProtected, shareAnswered, shareSent } from "../share-accounting.ts";
import { type EqJob, MinerJobs, type SentJob } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import { parseSubmit, parseSubscribe, solutionLength } from "./messages.ts";
import { EquihashMethod, NONCE_BYTES } from "./methods.ts";
import type { EqUpstream, ShareTicket } from "./upstream.ts";

export type MinerState = "connected" | "subscribed" | "authorized" | "closed";

/** Malformed lines, unknown methods and out-of-order requests tolerated before the socket closes. */
export const MAX_STRIKES = 20;

export interface MinerHost {
  readonly portId: number;
  readonly config: Port;
  readonly category: string;
  readonly factor: number;
  /** bytes of a solution on the port's coin; null: checked against its compactSize prefix only */
  readonly solutionBytes: number | null;
  readonly mode: ModeStrategy;
  readonly registry: DeviceRegistry;
  readonly fee: FeeScheduler;
  readonly timing: EngineTiming;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /** logs a message once per key (the port's lifetime) */
  logOnce(key: string, level: LogLevel, message: string): void;
  /** the miner's own session, or its place on a shared main lane */
  mainLane(miner: EqMinerSession): Lane | null;
  /** the lane of a fee target holding the miner's slot (opened on demand) */
  feeLane(miner: EqMinerSession, key: string): Lane | null;
  releaseMiner(miner: EqMinerSession): void;
}

const slotHex = (slot: number): string => slot.toString(16).padStart(2, "0");

class Share implements ShareTicket {
  constructor(
    readonly miner: EqMinerSession,
    readonly requestId: StratumId,
    readonly target: string,
    readonly work: number,
    readonly device: DeviceRecord,
    readonly ledger: WorkSplit,
  ) {}

  onResult(error: StratumError | null, latencyMs: number): void {
    this.miner.onShareResult(this, error, latencyMs);
  }
}

export class EqMinerSession implements LaneMiner, MinerConnection, IntakeOwner {
  state: MinerState = "connected";
  agent = "";
  /** the NONCE_1 the miner holds now */
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
  private lastTarget = "";
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

  private refuse(id: StratumId, error: StratumError): void {
    this.out.write(errorLine(id, error));
  }

  private strike(id: StratumId, error: StratumError): void {
    this.refuse(id, error);
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
  }

  // ---- requests ----

  handleLine(line: string): Promise<void> | undefined {
    const m = parsePositional(line);
    if (m === null) {
      this.host.log("warn", `miner ${this.ip}: malformed line`);
      this.strike(null, new StratumError(ErrorCode.OTHER, "malformed JSON"));
      return;
    }
    if (m.kind === "response") return;
    switch (m.method) {
      case EquihashMethod.SUBSCRIBE:
        if (this.state !== "connected") {
          this.strike(m.id, new StratumError(ErrorCode.OTHER, "already subscribed"));
          return;
        }
        return this.subscribe(m.id, m.params);
      case EquihashMethod.EXTRANONCE_SUBSCRIBE:
        this.extranonceSubscribed = true;
        this.out.write(resultLine(m.id, true));
        return;
      case EquihashMethod.AUTHORIZE:
        return this.authorize(m.id, m.params);
      case EquihashMethod.SUBMIT:
        this.submit(m.id, m.params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new StratumError(ErrorCode.OTHER, "unknown method"));
    }
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
      this.refuse(id, new StratumError(ErrorCode.UNAUTHORIZED, "wallet banned"));
      this.close("banned wallet");
      return null;
    }
    const upstreamUser = intern(joinUser(rewriteIdentity(original, this.host.config)));
    return { upstreamUser, wallet: original.wallet, name: original.name };
  }

  /** mining.subscribe: the answer waits for the session whose NONCE_1 the miner will mine under. */
  private async subscribe(id: StratumId, params: unknown[]): Promise<void> {
    const agent = parseSubscribe(params);
    if (agent instanceof StratumError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    const lane = this.host.mainLane(this);
    if (lane === null) {
      this.refuse(id, new StratumError(ErrorCode.OTHER, "no pool configured"));
      this.close("no pool configured");
      return;
    }
    this.main = lane;
    const ok = await lane.whenSubscribed(this.host.timing.connectTimeoutMs * 2);
    const u = lane.upstream;
    if ((this.state as MinerState) === "closed") return;
    if (!ok || u === null) {
      this.refuse(id, new StratumError(ErrorCode.OTHER, "pool unavailable"));
      this.close("pool unavailable at subscribe");
      return;
    }
    this.prefix = this.prefixOn(lane.shared, u.extranonce);
    this.state = "subscribed";
    this.out.write(resultLine(id, [null, this.prefix]));
  }

  private async authorize(id: StratumId, params: unknown[]): Promise<void> {
    const a = parseAuthorize(params);
    if (a instanceof StratumError) {
      this.strike(id, a);
      return;
    }
    if (this.state === "connected") {
      this.strike(id, new StratumError(ErrorCode.NOT_SUBSCRIBED, "not subscribed"));
      return;
    }
    if (this.state === "authorized") {
      // one worker per connection: further names mine under the first
      this.out.write(resultLine(id, true));
      return;
    }
    const who = this.identify(id, a.user);
    if (who === null) return;
    const lane = this.main as Lane;
    if (!lane.shared) {
      const ok = await lane.addUser(who.upstreamUser, a.password || "x");
      if ((this.state as MinerState) === "closed") return;
      if (!ok) {
        this.refuse(id, new StratumError(ErrorCode.UNAUTHORIZED, "pool refused the worker"));
        return;
      }
    }
    this.out.write(resultLine(id, true));
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
    this.feeMode = chooseFeeMode(
      this.host.mode,
      this.canSetExtranonce(),
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
    // Compatible-style fee: the fee workers are authorized on the miner's main session
    if (this.feeMode === "share" && this.main !== null)
      for (const t of this.host.fee.targets) if (t.ratio > 0) void this.main.addUser(t.user, "x");
    if (this.target !== MAIN && this.host.fee.target(this.target) === undefined && this.main)
      this.moveTo(this.main, MAIN);
  }

  private submit(id: StratumId, params: unknown[]): void {
    const s = parseSubmit(params);
    if (s instanceof StratumError) {
      this.strike(id, s);
      return;
    }
    if (this.state !== "authorized") {
      this.strike(id, new StratumError(ErrorCode.UNAUTHORIZED, "unauthorized worker"));
      return;
    }
    const sent = this.sent.byId(s.jobId);
    if (sent === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", new StratumError(ErrorCode.STALE, "job not found"));
      return;
    }
    // NONCE_1 ‖ NONCE_2 is the whole 32-byte nonce: a NONCE_2 of any other length would put the
    // miner's work outside the NONCE_1 it was given (or under another miner's slot byte)
    if (s.nonce2.length !== NONCE_BYTES * 2 - sent.prefix.length) {
      this.localVerdict(
        id,
        "invalid",
        new StratumError(ErrorCode.OTHER, `NONCE_2 must be ${NONCE_BYTES - sent.prefix.length / 2} bytes`),
      );
      return;
    }
    const bytes = this.host.solutionBytes;
    if (bytes !== null && solutionLength(s.solution)?.bytes !== bytes) {
      this.localVerdict(
        id,
        "invalid",
        new StratumError(ErrorCode.OTHER, `solution must be ${bytes} bytes on this coin`),
      );
      return;
    }
    if (!this.sent.firstUse(sent, s.time + s.nonce2 + s.solution.slice(0, 64))) {
      this.localVerdict(id, "invalid", new StratumError(ErrorCode.DUPLICATE, "duplicate share"));
      return;
    }
    const poolNonce2 = sent.job.origin.shared ? slotHex(this.slot) + s.nonce2 : s.nonce2;
    this.send(id, sent, s.time, poolNonce2, s.solution);
  }

  /** The checks passed: count the share in flight and send it to the session that issued its job. */
  private send(id: StratumId, sent: SentJob, time: string, nonce2: string, solution: string): void {
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
    job.upstream.submit(
      user,
      job.work,
      time,
      nonce2,
      solution,
      new Share(this, id, target, work, device, ledger),
    );
  }

  private localVerdict(id: StratumId, outcome: ShareOutcome, error: StratumError): void {
    if (this.device !== null) this.host.registry.result(this.device, outcome, MAIN, 0, 0, false, Date.now());
    if (this.host.config.setting.fr === 1) this.out.write(resultLine(id, true));
    else this.refuse(id, error);
  }

  onShareResult(share: Share, error: StratumError | null, latencyMs: number): void {
    const outcome: ShareOutcome =
      error === null ? "valid" : error.code === ErrorCode.STALE ? "stale" : "invalid";
    shareAnswered(this.host.registry, share, outcome, latencyMs, !this.isProtected());
    if (this.state === "closed") return;
    if (error === null || this.host.config.setting.fr === 1)
      this.out.write(resultLine(share.requestId, true));
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

  /** The NONCE_1 this miner mines under on a (shared) session whose own NONCE_1 is `poolPrefix`. */
  private prefixOn(shared: boolean, poolPrefix: string): string {
    return shared ? poolPrefix + slotHex(this.slot) : poolPrefix;
  }

  onLaneJob(lane: Lane, job: EqJob): void {
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

  onLaneSession(lane: Lane, u: EqUpstream): void {
    // A new session of the miner's lane may have a new NONCE_1: sendJob gives it with the next job.
    if (lane !== this.lane) return;
    if (this.prefixOn(lane.shared, u.extranonce) !== this.prefix && !this.canSetExtranonce())
      this.close("pool session changed and the miner cannot take a new NONCE_1");
  }

  private canSetExtranonce(): boolean {
    return this.extranonceSubscribed && this.host.config.setting.cut !== 1;
  }

  private sendJob(job: EqJob, clean: boolean): void {
    const prefix = this.prefixOn(job.origin.shared, job.work.extranonce);
    if (prefix !== this.prefix) {
      if (!this.canSetExtranonce()) {
        this.close("the miner cannot take a new NONCE_1");
        return;
      }
      this.prefix = prefix;
      this.out.write(requestLine(null, EquihashMethod.SET_EXTRANONCE, [prefix]));
    }
    if (job.work.target !== this.lastTarget) {
      this.lastTarget = job.work.target;
      this.out.write(requestLine(null, EquihashMethod.SET_TARGET, [job.work.target]));
    }
    this.out.write(job.notifyLine(clean));
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
