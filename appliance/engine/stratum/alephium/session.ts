/**
 * AlphMinerSession: one connected Alephium miner, an explicit state machine (connected → subscribed
 * → authorized → closed) that handles its lines strictly in order and sends each share to the
 * session that issued its job. Errors on the share path are data, answered as [code, message, null].
 *
 * A miner is moved between pool sessions by mining.set_extranonce (the new session's prefix, with
 * the miner's slot byte on a shared session), mining.set_difficulty and that session's notify; every
 * Alephium miner takes mining.set_extranonce, which the reference pool itself sends after the login.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../../stats/work-split.ts";
import type { FeeSeat } from "../../fee/fee-group.ts";
import type { FeeScheduler } from "../../fee/scheduler.ts";
import type { ModeStrategy } from "../../modes/mode.ts";
import { joinUser, rewriteIdentity, splitUser } from "../../rewrite.ts";
import { type ByteSocket, LineWriter } from "../../transport/line-writer.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import { parseMessage, requestLine, type StratumId, type StratumParams } from "../message.ts";
import { type IntakeOwner, MinerIntake } from "../miner-intake.ts";
import { hashrateProtected, shareAnswered, shareSent } from "../share-accounting.ts";
import { AlphError, AlphErrorCode, STALE_JOB } from "./errors.ts";
import type { AlphJob } from "./job.ts";
import { MinerJobs } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import { parseAuthorize, parseSubmit, parseSubscribe } from "./messages.ts";
import { AlphMethod } from "./methods.ts";
import type { ShareTicket } from "./upstream.ts";

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
  /** the miner's own session logged in as `user` (Efficient), or its place on a shared main lane */
  mainLane(miner: AlphMinerSession, user: string, password: string): Lane | null;
  /** the lane of a fee target holding the miner's slot (opened on demand) */
  feeLane(miner: AlphMinerSession, key: string): Lane | null;
  releaseMiner(miner: AlphMinerSession): void;
}

const slotHex = (slot: number): string => slot.toString(16).padStart(2, "0");

class Share implements ShareTicket {
  constructor(
    readonly miner: AlphMinerSession,
    readonly requestId: StratumId,
    readonly target: string,
    readonly work: number,
    readonly device: DeviceRecord,
    readonly ledger: WorkSplit,
  ) {}

  onResult(error: AlphError | null, latencyMs: number): void {
    this.miner.onShareResult(this, error, latencyMs);
  }
}

let nextMinerId = 1;

export class AlphMinerSession implements LaneMiner, MinerConnection, IntakeOwner {
  readonly id = nextMinerId++;
  state: MinerState = "connected";
  agent = "";
  /** the extranonce the miner holds now */
  prefix = "";
  lane: Lane | null = null;
  main: Lane | null = null;
  target = MAIN;
  readonly connectedAt = Date.now();
  private device: DeviceRecord | null = null;
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

  private answer(id: StratumId, result: unknown): void {
    this.out.write(`${JSON.stringify({ id, result, error: null })}\n`);
  }

  private refuse(id: StratumId, error: AlphError): void {
    this.out.write(`${JSON.stringify({ id, result: null, error: [error.code, error.message, null] })}\n`);
  }

  private strike(id: StratumId, error: AlphError): void {
    this.refuse(id, error);
    this.countStrike(error);
  }

  private countStrike(error: AlphError): void {
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
  }

  // ---- requests ----

  handleLine(line: string): Promise<void> | undefined {
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
        return this.authorize(m.id, m.params);
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
  private async authorize(id: StratumId, params: StratumParams): Promise<void> {
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
    const split = splitUser(a.user);
    const original = { wallet: intern(split.wallet), name: split.name };
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.refuse(id, new AlphError(AlphErrorCode.INVALID_WORKER, "wallet banned"));
      this.close("banned wallet");
      return;
    }
    const upstreamUser = intern(joinUser(rewriteIdentity(original, this.host.config)));
    const lane = this.host.mainLane(this, upstreamUser, a.password);
    if (lane === null) {
      this.refuse(id, new AlphError(AlphErrorCode.OTHER, "no pool configured"));
      this.close("no pool configured");
      return;
    }
    this.main = lane;
    const ok = await lane.whenReady(this.host.timing.connectTimeoutMs * 2);
    if ((this.state as MinerState) === "closed") return;
    if (!ok) {
      const why = lane.refusal ?? "pool unavailable";
      this.refuse(
        id,
        new AlphError(lane.refusal === null ? AlphErrorCode.OTHER : AlphErrorCode.INVALID_WORKER, why),
      );
      this.close(`${why} at login`);
      return;
    }
    this.answer(id, true);
    const device = this.host.registry.connect(
      this.host.portId,
      original.wallet,
      original.name,
      this.ip,
      this.host.category,
      Date.now(),
    );
    device.upstreamUser = upstreamUser;
    device.agent = this.agent;
    this.device = device;
    this.state = "authorized";
    if (this.loginTimer) clearTimeout(this.loginTimer);
    this.loginTimer = null;
    // every miner takes mining.set_extranonce, so every miner is moved for fee: no Compatible fallback
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
    if (this.target !== MAIN && this.host.fee.target(this.target) === undefined && this.main)
      this.moveTo(this.main, MAIN);
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
    const found = this.sent.find(s.jobId);
    if (found === undefined || !found.sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", STALE_JOB());
      return;
    }
    const { sent, entry } = found;
    if (s.fromGroup !== entry.pool.fromGroup || s.toGroup !== entry.pool.toGroup) {
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
    const work = job.difficulty * this.host.factor;
    const target = job.origin.target;
    const seat = this.seat as FeeSeat;
    const device = this.device as DeviceRecord;
    const fee = this.host.fee;
    const ledger = shareSent(fee, seat, device, target, work);
    job.upstream.submit(entry.pool, s.nonce, new Share(this, id, target, work, device, ledger));
  }

  private localVerdict(id: StratumId, outcome: ShareOutcome, error: AlphError): void {
    if (this.device !== null) this.host.registry.result(this.device, outcome, MAIN, 0, 0, false, Date.now());
    if (this.host.config.setting.fr === 1) this.answer(id, true);
    else this.refuse(id, error);
  }

  onShareResult(share: Share, error: AlphError | null, latencyMs: number): void {
    const outcome: ShareOutcome = error === null ? "valid" : error.stale ? "stale" : "invalid";
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
    if (this.state !== "authorized") return;
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
    if (lane.current !== null) this.sendJob(lane.current);
  }

  onLaneJob(lane: Lane, job: AlphJob): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    this.sendJob(job);
  }

  onLaneReady(lane: Lane): void {
    lane.waiting.delete(this);
    if (this.state === "authorized" && this.lane !== lane) this.evaluate();
  }

  onLaneDown(lane: Lane): void {
    if (lane === this.lane && this.main !== null && lane !== this.main && this.state === "authorized")
      this.moveTo(this.main, MAIN);
  }

  /** The job, preceded by the session's prefix and difficulty when they differ from the miner's. */
  private sendJob(job: AlphJob): void {
    const prefix = job.origin.shared ? job.extranonce + slotHex(this.slot) : job.extranonce;
    if (prefix !== this.prefix || this.sent.isEmpty) {
      this.prefix = prefix;
      this.out.write(requestLine(null, AlphMethod.SET_EXTRANONCE, [prefix]));
    }
    if (job.difficulty !== this.lastDifficulty) {
      this.lastDifficulty = job.difficulty;
      this.out.write(requestLine(null, AlphMethod.SET_DIFFICULTY, [job.difficulty]));
    }
    this.out.write(job.notifyLine());
    this.sent.add(job, prefix);
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
