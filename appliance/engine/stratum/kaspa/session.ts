/**
 * KaspaMinerSession: one connected Kaspa miner, an explicit state machine (connected → subscribed →
 * authorized → closed) that handles its lines strictly in order and sends shares to the session that
 * issued their job. The miner's prefix (the nonce's high bytes) is given with mining.set_extranonce
 * after authorize, as the bridges do; a later change (a move to a fee session, a new pool session)
 * is sent only to a miner that asked for changes with mining.extranonce.subscribe. Errors on the
 * share path are data, answered as [code, message, null].
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
import { EthError, EthErrorCode } from "../ethereum/errors.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import { errorLine, parsePositional, requestLine, resultLine, type StratumId } from "../message.ts";
import { type IntakeOwner, MinerIntake } from "../miner-intake.ts";
import {
  type AnsweredShare,
  hashrateProtected,
  routeShare,
  shareAnswered,
  shareSent,
  wantedTarget,
} from "../share-accounting.ts";
import { type KaspaJob, MinerJobs, type SentJob } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import { parseLogin, parseSubmit, parseSubscribe } from "./messages.ts";
import {
  isBitmainAgent,
  KASPA_PROTOCOL,
  KaspaMethod,
  NONCE_HEX,
  type NotifyForm,
  notifyFormOf,
} from "./methods.ts";
import type { ShareTicket } from "./upstream.ts";

export type MinerState = "connected" | "subscribed" | "authorized" | "closed";

/** Malformed lines, unknown methods and nonces outside the prefix tolerated before closing. */
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
  /** the miner's own session, or its place on a shared main lane */
  mainLane(miner: KaspaMinerSession): Lane | null;
  /** the lane of a fee target holding the miner's slot (opened on demand) */
  feeLane(miner: KaspaMinerSession, key: string): Lane | null;
  releaseMiner(miner: KaspaMinerSession): void;
}

const slotHex = (slot: number): string => slot.toString(16).padStart(2, "0");

class Share implements ShareTicket, AnsweredShare {
  constructor(
    readonly miner: KaspaMinerSession,
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

export class KaspaMinerSession implements LaneMiner, MinerConnection, IntakeOwner {
  readonly id = nextMinerId++;
  state: MinerState = "connected";
  agent = "";
  form: NotifyForm = "u64";
  private bitmain = false;
  /** the prefix the miner holds; null until it was given one */
  prefix: string | null = null;
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
  private readonly intake: MinerIntake;
  private loginTimer: ReturnType<typeof setTimeout> | null;
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

  private refuse(id: StratumId, error: EthError): void {
    this.out.write(errorLine(id, error.wire("nicehash")));
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
    switch (m.method) {
      case KaspaMethod.SUBSCRIBE:
        if (this.state !== "connected") {
          this.strike(m.id, new EthError(EthErrorCode.OTHER, "already subscribed"));
          return;
        }
        return this.subscribe(m.id, m.params);
      case KaspaMethod.EXTRANONCE_SUBSCRIBE:
        this.extranonceSubscribed = true;
        this.out.write(resultLine(m.id, true));
        return;
      case KaspaMethod.AUTHORIZE:
        return this.authorize(m.id, m.params);
      case KaspaMethod.SUBMIT:
        this.submit(m.id, m.params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new EthError(EthErrorCode.OTHER, "unknown method"));
    }
  }

  /** mining.subscribe: the answer waits for the main session the miner will mine on. */
  private async subscribe(id: StratumId, params: unknown[]): Promise<void> {
    const agent = parseSubscribe(params);
    if (agent instanceof EthError) {
      this.strike(id, agent);
      return;
    }
    this.agent = intern(agent);
    this.form = notifyFormOf(agent);
    this.bitmain = isBitmainAgent(agent);
    const lane = this.host.mainLane(this);
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
    this.state = "subscribed";
    if (this.bitmain) {
      // Bitmain firmware takes a prefix here; the set_extranonce after authorize confirms or corrects
      // it (an Efficient session learns its pool's prefix only then), as the bridges do
      const prefix = this.prefixOn(lane.shared, u.extranonce);
      this.out.write(resultLine(id, [null, prefix, NONCE_HEX / 2 - prefix.length / 2]));
    } else this.out.write(resultLine(id, [true, KASPA_PROTOCOL]));
  }

  private async authorize(id: StratumId, params: unknown[]): Promise<void> {
    const a = parseLogin(KaspaMethod.AUTHORIZE, params);
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
      this.out.write(resultLine(id, true));
      return;
    }
    const split = splitUser(a.user);
    const original = { wallet: intern(split.wallet), name: split.name };
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.refuse(id, new EthError(EthErrorCode.UNAUTHORIZED, "wallet banned"));
      this.close("banned wallet");
      return;
    }
    const upstreamUser = intern(joinUser(rewriteIdentity(original, this.host.config)));
    const lane = this.main as Lane;
    if (!lane.shared) {
      const ok = await lane.addUser(upstreamUser, a.password);
      if ((this.state as MinerState) === "closed") return;
      if (!ok) {
        this.refuse(id, new EthError(EthErrorCode.UNAUTHORIZED, "pool refused the worker"));
        return;
      }
    }
    this.out.write(resultLine(id, true));
    this.authorized(upstreamUser, original.wallet, original.name, lane);
  }

  private authorized(upstreamUser: string, wallet: string, name: string, lane: Lane): void {
    const device = this.host.registry.connect(
      this.host.portId,
      wallet,
      name,
      this.ip,
      this.host.category,
      Date.now(),
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
    // Compatible-style fee: the fee workers are authorized on the miner's own main session
    if (this.feeMode === "share" && this.main !== null)
      for (const t of this.host.fee.targets) if (t.ratio > 0) void this.main.addUser(t.user, "x");
    if (this.target !== MAIN && this.host.fee.target(this.target) === undefined && this.main)
      this.moveTo(this.main, MAIN);
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
    const sent = this.sent.byId(s.jobId);
    if (sent === undefined || !sent.job.upstream.isReady) {
      this.localVerdict(id, "stale", new EthError(EthErrorCode.STALE, "job not found"));
      return;
    }
    const nonce = fullNonce(s.nonce, sent.prefix);
    if (nonce === null) {
      this.localVerdict(id, "invalid", new EthError(EthErrorCode.OTHER, "nonce outside the extranonce"));
      if (++this.strikes > MAX_STRIKES)
        this.close("too many bad requests (last: nonce outside the extranonce)");
      return;
    }
    this.send(id, sent, nonce);
  }

  /** The checks passed: count the share in flight and send it to the session that issued its job. */
  private send(id: StratumId, sent: SentJob, nonce: string): void {
    const job = sent.job;
    const work = job.difficulty * this.host.factor;
    const seat = this.seat as FeeSeat;
    const fee = this.host.fee;
    const route = routeShare(
      this.feeMode,
      this.isProtected(),
      seat,
      fee,
      work,
      { target: job.origin.target, user: job.origin.user ?? this.upstreamUser },
      job.upstream.authorized,
    );
    const device = this.device as DeviceRecord;
    shareSent(fee, seat, device, route.target, work);
    job.upstream.submit(
      route.user,
      job.work,
      nonce,
      new Share(this, id, route.target, work, device, seat.group.ledger),
    );
  }

  private localVerdict(id: StratumId, outcome: ShareOutcome, error: EthError): void {
    if (this.device !== null) this.host.registry.result(this.device, outcome, MAIN, 0, 0, false, Date.now());
    if (this.host.config.setting.fr === 1) this.out.write(resultLine(id, true));
    else this.refuse(id, error);
  }

  onShareResult(share: Share, error: EthError | null, latencyMs: number): void {
    const outcome: ShareOutcome =
      error === null ? "valid" : error.code === EthErrorCode.STALE ? "stale" : "invalid";
    shareAnswered(this.host.registry, share, outcome, latencyMs, !this.isProtected());
    if (this.state === "closed") return;
    if (error === null || this.host.config.setting.fr === 1)
      this.out.write(resultLine(share.requestId, true));
    else this.refuse(share.requestId, error);
    this.evaluate();
  }

  isProtected(): boolean {
    const c = this.host;
    return hashrateProtected(c.config, c.timing, this.connectedAt, this.main?.sessionSince ?? null);
  }

  reconsider(): void {
    this.evaluate();
  }

  /** After each answered share: move to the source the fee scheduler wants. */
  evaluate(): void {
    if (this.feeMode !== "switch" || this.state !== "authorized") return;
    const seat = this.seat;
    if (seat === null || this.main === null) return;
    const want = wantedTarget(seat, this.host.fee, this.target, this.isProtected());
    if (want === null || want === this.target) return;
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

  /** The prefix this miner mines under on a (shared) session whose own prefix is `poolPrefix`. */
  private prefixOn(shared: boolean, poolPrefix: string): string {
    return shared ? poolPrefix + slotHex(this.slot) : poolPrefix;
  }

  onLaneJob(lane: Lane, job: KaspaJob): void {
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

  private canSetExtranonce(): boolean {
    return this.extranonceSubscribed && this.host.config.setting.cut !== 1;
  }

  private sendJob(job: KaspaJob): void {
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
      this.out.write(requestLine(null, KaspaMethod.SET_DIFFICULTY, [job.difficulty]));
    }
    this.out.write(job.notifyLine(this.form));
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
