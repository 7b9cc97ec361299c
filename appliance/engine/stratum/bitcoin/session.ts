/**
 * MinerSession: one connected miner. An explicit state machine (connected → subscribed →
 * authorized → closed) that handles its lines strictly in order, answers from the proxy what the
 * proxy can, and sends shares to the upstream that issued their job. Errors on the share path are
 * returned as data and answered as stratum errors; only the connection edge closes sockets.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../../stats/work-split.ts";
import { deadlines } from "../../deadlines.ts";
import type { FeeSeat } from "../../fee/fee-group.ts";
import type { FeeScheduler } from "../../fee/scheduler.ts";
import { chooseFeeMode, type FeeMode, type ModeStrategy } from "../../modes/mode.ts";
import { joinUser, rewriteIdentity, splitUser } from "../../rewrite.ts";
import { type ByteSocket, LineWriter } from "../../transport/line-writer.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import type { LaneWaiter } from "../lane-waiters.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../line-codec.ts";
import {
  errorLine,
  numberLine,
  parsePositional,
  requestLine,
  resultLine,
  type StratumId,
} from "../message.ts";
import type { AuthorizeWaiter } from "../pool-session.ts";
import { wantedMove } from "../share-accounting.ts";
import { ErrorCode, StratumError } from "./errors.ts";
import { type Framing, MINER_EXTRANONCE2_BYTES, minerWidth, slotHex } from "./framing.ts";
import type { Job, JobTable } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import { parseAuthorize, parseConfigure, parseDifficulty, parseSubmit, parseSubscribe } from "./messages.ts";
import { BIP320_MASK, Method } from "./methods.ts";
import type { ShareTicket, Upstream, UpstreamJob } from "./upstream.ts";

export type MinerState = "connected" | "subscribed" | "authorized" | "closed";

/** Malformed lines or unknown methods tolerated before the connection is closed. */
export const MAX_STRIKES = 20;
/** Lines queued while an earlier one waits for the pool (subscribe, authorize). */
const MAX_QUEUED_LINES = 64;

export interface MinerHost {
  readonly portId: number;
  readonly config: Port;
  readonly category: string;
  readonly factor: number;
  readonly mode: ModeStrategy;
  readonly jobs: JobTable;
  readonly registry: DeviceRegistry;
  readonly fee: FeeScheduler;
  readonly timing: EngineTiming;
  versionMask(): number;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /** A dedicated lane, or this miner's slot on a shared main lane (the mode decides). */
  mainLane(miner: MinerSession): Lane | null;
  /** The lane of a fee target holding this miner's slot (opened on demand). */
  feeLane(miner: MinerSession, key: string): Lane | null;
  releaseMiner(miner: MinerSession): void;
  /**
   * Session resume: the slot a recently closed session with this id had, taken over by the caller
   * (which gives up `current`), or null when the id is unknown or the slot is in use.
   */
  resumeSlot(sessionId: string, current: number): number | null;
}

interface Worker {
  upstreamUser: string;
  device: DeviceRecord;
}

interface Identity {
  wallet: string;
  name: string;
}

/** A login request held until the miner's own pool session answers it; the lines after it wait too. */
type HeldLogin =
  | { step: "subscribe"; id: StratumId }
  | { step: "authorize"; id: StratumId; user: string; original: Identity; upstreamUser: string };

class Share implements ShareTicket {
  constructor(
    readonly miner: MinerSession,
    readonly requestId: StratumId,
    readonly target: string,
    readonly work: number,
    readonly device: DeviceRecord,
    /** the fee group's ledger the share was counted in when sent */
    readonly ledger: WorkSplit,
  ) {}

  onResult(error: StratumError | null, latencyMs: number): void {
    this.miner.onShareResult(this, error, latencyMs);
  }
}

let nextMinerId = 1;

const popcount = (n: number): number => {
  let c = 0;
  for (let v = n >>> 0; v !== 0; v &= v - 1) c++;
  return c;
};

export class MinerSession implements LaneMiner, LaneWaiter, AuthorizeWaiter, MinerConnection {
  readonly id = nextMinerId++;
  state: MinerState = "connected";
  agent = "";
  framing: Framing = "reframe";
  extranonce1 = "";
  extranonce2Size = MINER_EXTRANONCE2_BYTES;
  extranonceSubscribed = false;
  feeMode: FeeMode = "switch";
  /** the lane whose jobs this miner mines now */
  lane: Lane | null = null;
  main: Lane | null = null;
  /** "main" or the fee key of the lane the miner mines on */
  target = MAIN;
  /** its places in its lane's miners and in the port's */
  laneIndex = -1;
  portIndex = -1;
  readonly connectedAt = Date.now();
  /** this miner's place in the port's fee balancing, from authorize on */
  private seat: FeeSeat | null = null;
  /** the first authorized worker's name; further names (rare) live in `others` */
  private primaryUser = "";
  private others: Map<string, Worker> | null = null;
  private primary: Worker | null = null;
  private requestedMask = 0;
  private toldMask = 0;
  private lastDifficulty = 0;
  /** the last job sent: the miner mines it until the next notify */
  private lastJob: Job | null = null;
  /**
   * Per lane, the pool job this miner was last given, so it is never handed the same work twice:
   * the main lane in a field, fee lanes in a map made on the first visit.
   */
  private givenMain: UpstreamJob | undefined;
  private givenFee: Map<number, UpstreamJob> | null = null;
  private strikes = 0;
  private windowStart = 0;
  private windowLines = 0;
  private queue: string[] | null = null;
  private held: HeldLogin | null = null;
  /**
   * The login deadline, then while a subscribe is held the wait for the pool session, in the
   * thread's deadline sweep (deadlines.ts): a timer per miner was garbage on every login.
   */
  deadlineIndex = -1;
  deadlineAt = 0;
  /** the session id given at subscribe; a reconnecting miner may present it to resume */
  sessionId = "";

  readonly splitter: LineSplitter;
  readonly writer: LineWriter;

  constructor(
    private readonly host: MinerHost,
    socket: ByteSocket,
    readonly ip: string,
    public slot: number,
    /**
     * a stream of an RMS tunnel rather than a socket of its own: it may be another Pithead's pool
     * session, so it is given all the extranonce2 its pool leaves (framing.ts)
     */
    readonly tunnelled = false,
  ) {
    this.writer = new LineWriter(socket);
    this.splitter = new LineSplitter(MAX_LINE_BYTES, this);
    deadlines.set(this, host.timing.loginTimeoutMs);
  }

  onDeadline(): void {
    const held = this.held;
    if (held?.step === "subscribe") this.poolUnavailable(held.id);
    else this.close("login timeout");
  }

  /** What remains of the login deadline. */
  private loginLeft(): number {
    return this.connectedAt + this.host.timing.loginTimeoutMs - Date.now();
  }

  onData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onDrain(): void {
    this.writer.drain();
  }

  get device(): DeviceRecord | null {
    return this.primary?.device ?? null;
  }

  onLine(line: string): void {
    if (this.state === "closed") return;
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowLines = 0;
    }
    if (++this.windowLines > this.host.timing.floodLinesPerSecond) {
      this.close("flood: too many lines per second");
      return;
    }
    if (this.held !== null) {
      this.queue ??= [];
      if (this.queue.length >= MAX_QUEUED_LINES) {
        this.close("flood: too many lines while waiting for the pool");
        return;
      }
      this.queue.push(line);
      return;
    }
    this.handle(line);
  }

  private worker(user: string): Worker | undefined {
    if (this.primary !== null && user === this.primaryUser) return this.primary;
    return this.others?.get(user);
  }

  onOverflow(): void {
    this.close("line too long");
  }

  /** The held login request is answered: the lines that came meanwhile are handled in order. */
  private resume(): void {
    this.held = null;
    const q = this.queue;
    while (this.held === null && q !== null && q.length > 0 && this.state !== "closed")
      this.handle(q.shift() as string);
    if (this.queue?.length === 0) this.queue = null;
  }

  /** Answers a bad request; undefined, so that a handler may `return this.strike(…)`. */
  private strike(id: StratumId, error: StratumError): undefined {
    this.writer.write(errorLine(id, error));
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
    return undefined;
  }

  private handle(line: string): void {
    const m = parsePositional(line);
    if (m === null) {
      this.strike(null, new StratumError(ErrorCode.OTHER, "malformed JSON"));
      return;
    }
    if (m.kind === "response") return; // answers to our pings, nothing to do
    const params = m.params;
    switch (m.method) {
      case Method.CONFIGURE:
        this.configure(m.id, params);
        return;
      case Method.SUBSCRIBE:
        this.subscribe(m.id, params);
        return;
      case Method.EXTRANONCE_SUBSCRIBE:
        this.extranonceSubscribed = true;
        this.writer.write(resultLine(m.id, true));
        return;
      case Method.AUTHORIZE:
        this.authorize(m.id, params);
        return;
      case Method.SUBMIT:
        this.submit(m.id, params);
        return;
      case Method.SUGGEST_DIFFICULTY: {
        const d = parseDifficulty(m.method, params);
        if (!(d instanceof StratumError) && this.main !== null && !this.main.shared)
          this.main.upstream?.suggestDifficulty(d);
        this.writer.write(resultLine(m.id, true));
        return;
      }
      case Method.PING:
        this.writer.write(resultLine(m.id, "pong"));
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, new StratumError(ErrorCode.OTHER, "unknown method"));
    }
  }

  private configure(id: StratumId, params: unknown[]): void {
    const c = parseConfigure(params);
    if (c instanceof StratumError) {
      this.strike(id, c);
      return;
    }
    const result: Record<string, unknown> = {};
    for (const ext of c.extensions) result[ext] = false;
    if (c.versionRollingMask !== null) {
      const mask = (c.versionRollingMask & BIP320_MASK & this.host.versionMask()) >>> 0;
      // BIP310: refuse when fewer bits remain than the miner needs
      const enough = mask !== 0 && popcount(mask) >= c.minBitCount;
      this.requestedMask = enough ? c.versionRollingMask : 0;
      this.toldMask = enough ? mask : 0;
      result["version-rolling"] = enough;
      if (enough) result["version-rolling.mask"] = mask.toString(16).padStart(8, "0");
    }
    // BIP310's subscribe-extranonce is the same promise as mining.extranonce.subscribe
    if (c.extensions.includes("subscribe-extranonce")) {
      this.extranonceSubscribed = true;
      result["subscribe-extranonce"] = true;
    }
    this.writer.write(resultLine(id, result));
  }

  /**
   * Answered at once on a shared lane; only a miner on its own pool session (Efficient and
   * Compatible mode, a tunnel stream) is held until that session has subscribed. The login path
   * allocates once per miner, and promises, timers and closures where a field does were garbage
   * every login left among the miner's long-lived objects (docs/benchmarks.md: what Bun alone takes).
   */
  private subscribe(id: StratumId, params: unknown[]): undefined {
    const s = parseSubscribe(params);
    if (s instanceof StratumError) return this.strike(id, s);
    if (this.state !== "connected")
      return this.strike(id, new StratumError(ErrorCode.OTHER, "already subscribed"));
    // Farms run many identical miners: share one copy of the agent, wallet and upstream name.
    this.agent = intern(s.agent);
    this.sessionId = this.id.toString(16).padStart(8, "0");
    if (s.sessionId !== null) {
      const slot = this.host.resumeSlot(s.sessionId, this.slot);
      if (slot !== null) {
        this.slot = slot;
        this.sessionId = s.sessionId;
      }
    }
    const lane = this.host.mainLane(this);
    if (lane === null) {
      this.writer.write(errorLine(id, new StratumError(ErrorCode.OTHER, "no pool configured")));
      this.close("no pool configured");
      return;
    }
    this.main = lane;
    // Efficient/Compatible: the miner's own session must exist to know its extranonce sizes; a
    // tunnel stream's width is what its main session leaves, in Pool mode too.
    if (lane.shared && !this.tunnelled) this.subscribed(id, 0);
    else if (lane.hasSubscribed) this.sessionKnown(id, lane);
    else {
      this.held = { step: "subscribe", id };
      deadlines.set(this, Math.min(this.host.timing.connectTimeoutMs * 2, this.loginLeft()));
      lane.awaitSubscribed(this);
    }
  }

  onLaneUsable(lane: object, ok: boolean): void {
    const held = this.held;
    if (held?.step !== "subscribe" || this.main === null || lane !== this.main || this.state === "closed")
      return;
    if (!ok) {
      this.poolUnavailable(held.id);
      return;
    }
    deadlines.set(this, Math.max(0, this.loginLeft()));
    this.sessionKnown(held.id, this.main);
    this.resume();
  }

  private poolUnavailable(id: StratumId): void {
    this.writer.write(errorLine(id, new StratumError(ErrorCode.OTHER, "pool unavailable")));
    this.close("pool unavailable at subscribe");
  }

  /** The miner's own pool session has subscribed: its extranonce sizes make the miner's. */
  private sessionKnown(id: StratumId, lane: Lane): void {
    const u = lane.upstream;
    if (u === null && !lane.shared) {
      this.poolUnavailable(id);
      return;
    }
    this.framing = lane.framing === "passthrough" ? "passthrough" : "reframe";
    if (this.framing === "passthrough" && u !== null) {
      this.extranonce1 = u.extranonce1;
      this.extranonce2Size = u.extranonce2Size;
    }
    this.subscribed(id, lane.extranonce2Size);
  }

  /** `poolSize`: the extranonce2 bytes of the miner's own session, 0 on a shared lane. */
  private subscribed(id: StratumId, poolSize: number): void {
    if (this.framing === "reframe") {
      this.extranonce1 = slotHex(this.slot);
      this.extranonce2Size = minerWidth(poolSize, this.tunnelled);
    }
    this.state = "subscribed";
    // resultLine(id, [[[SET_DIFFICULTY, sid], [NOTIFY, sid]], extranonce1, size]) without its four
    // arrays per login: the extranonce is our hex, and the session id is escaped once.
    const sid = JSON.stringify(this.sessionId);
    this.writer.write(
      `{"id":${JSON.stringify(id)},"result":[[["${Method.SET_DIFFICULTY}",${sid}],["${Method.NOTIFY}",${sid}]],"${this.extranonce1}",${this.extranonce2Size}],"error":null}\n`,
    );
  }

  /** Answered at once on a shared lane; a miner's own pool session is asked first, asynchronously. */
  private authorize(id: StratumId, params: unknown[]): undefined {
    const a = parseAuthorize(params);
    if (a instanceof StratumError) return this.strike(id, a);
    if (this.state === "connected") {
      this.writer.write(errorLine(id, new StratumError(ErrorCode.NOT_SUBSCRIBED, "not subscribed")));
      return;
    }
    const original = splitUser(a.user);
    original.wallet = intern(original.wallet);
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.writer.write(errorLine(id, new StratumError(ErrorCode.UNAUTHORIZED, "wallet banned")));
      this.close("banned wallet");
      return;
    }
    const config = this.host.config;
    const upstreamUser = intern(joinUser(rewriteIdentity(original, config)));
    const lane = this.main as Lane;
    if (lane.shared) this.authorized(id, a.user, original, upstreamUser, lane);
    else {
      this.held = { step: "authorize", id, user: a.user, original, upstreamUser };
      lane.addUser(upstreamUser, a.password, this);
    }
  }

  onPoolAuthorize(upstreamUser: string, ok: boolean): void {
    const held = this.held;
    if (held?.step !== "authorize" || held.upstreamUser !== upstreamUser || this.state === "closed") return;
    if (ok) this.authorized(held.id, held.user, held.original, upstreamUser, this.main as Lane);
    else
      this.writer.write(
        errorLine(held.id, new StratumError(ErrorCode.UNAUTHORIZED, "pool refused the worker")),
      );
    this.resume();
  }

  /** The worker `user` is in: its device, its fee seat, and work on the main lane. */
  private authorized(
    id: StratumId,
    user: string,
    original: Identity,
    upstreamUser: string,
    lane: Lane,
  ): void {
    const now = Date.now();
    const existing = this.worker(user);
    const device =
      existing?.device ??
      this.host.registry.connect(
        this.host.portId,
        original.wallet,
        original.name,
        this.ip,
        this.host.category,
        now,
      );
    device.upstreamUser = upstreamUser;
    device.agent = this.agent;
    const worker: Worker = { upstreamUser, device };
    this.writer.write(resultLine(id, true));
    if (this.primary !== null) {
      if (user !== this.primaryUser) {
        this.others ??= new Map();
        this.others.set(user, worker);
      } else this.primary = worker;
      return;
    }
    this.primary = worker;
    this.primaryUser = user;
    this.state = "authorized";
    deadlines.clear(this);
    this.feeMode = chooseFeeMode(
      this.host.mode,
      this.framing === "reframe",
      this.ip,
      this.host.fee.targets.length > 0,
      this.host,
    );
    this.seat = this.host.fee.seat(device, this);
    this.refreshFee();
    this.moveTo(lane, MAIN);
  }

  /** Fee wallets changed (or the miner just logged in): authorize fee workers where the mode needs them. */
  refreshFee(): void {
    const d = this.device;
    if (d === null) return;
    d.feeRatio = this.host.fee.configuredFor(d);
    if (this.seat !== null) this.host.fee.regroup(this.seat);
    if (this.feeMode === "share" && this.main !== null) {
      for (const t of this.host.fee.targets) if (t.ratio > 0) this.main.addUser(t.user, "x");
    }
    if (
      this.feeMode === "switch" &&
      this.target !== MAIN &&
      this.host.fee.target(this.target) === undefined
    ) {
      if (this.main) this.moveTo(this.main, MAIN);
    }
  }

  private submit(id: StratumId, params: unknown[]): void {
    const s = parseSubmit(params);
    if (s instanceof StratumError) {
      this.strike(id, s);
      return;
    }
    if (this.state !== "authorized") {
      this.writer.write(errorLine(id, new StratumError(ErrorCode.UNAUTHORIZED, "unauthorized worker")));
      return;
    }
    const worker = this.worker(s.worker) ?? (this.primary as Worker);
    const device = worker.device;
    const job = this.host.jobs.get(s.jobId);
    if (job === undefined || !job.upstream.isReady) {
      this.localVerdict(id, device, "stale", new StratumError(ErrorCode.STALE, "job not found"));
      this.recoverWork();
      return;
    }
    if (s.extranonce2.length !== this.extranonce2Size * 2) {
      this.localVerdict(id, device, "invalid", new StratumError(ErrorCode.OTHER, "wrong extranonce2 size"));
      return;
    }
    if (s.versionBits !== null) {
      const bits = Number.parseInt(s.versionBits, 16) >>> 0;
      if ((bits & ~job.versionMask) >>> 0 !== 0) {
        this.localVerdict(
          id,
          device,
          "invalid",
          new StratumError(ErrorCode.OTHER, "version bits outside mask"),
        );
        return;
      }
    }
    const work = job.difficulty * this.host.factor;
    let target = job.origin.target;
    let user = job.origin.user ?? worker.upstreamUser;
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
    seat.group.submitted(seat, target, work, fee.now());
    device.split.addInflight(target, work);
    seat.group.ledger.addInflight(target, work);
    device.lastSubmitAt = Date.now();
    job.upstream.submit(
      user,
      job.source.notify.jobId,
      job.upstreamExtranonce2(slotHex(this.slot), s.extranonce2),
      s.ntime,
      s.nonce,
      s.versionBits,
      new Share(this, id, target, work, device, seat.group.ledger),
    );
  }

  private localVerdict(
    id: StratumId,
    device: DeviceRecord,
    outcome: ShareOutcome,
    error: StratumError,
  ): void {
    this.host.registry.result(device, outcome, MAIN, 0, 0, false, Date.now());
    this.writer.write(this.host.config.setting.fr === 1 ? resultLine(id, true) : errorLine(id, error));
  }

  onShareResult(share: Share, error: StratumError | null, latencyMs: number): void {
    const d = share.device;
    d.split.settleInflight(share.target, share.work);
    share.ledger.settleInflight(share.target, share.work);
    const outcome: ShareOutcome =
      error === null ? "valid" : error.code === ErrorCode.STALE ? "stale" : "invalid";
    const counted = !this.isProtected();
    this.host.registry.result(d, outcome, share.target, share.work, latencyMs, counted, Date.now());
    if (counted && outcome === "valid") share.ledger.credit(share.target, share.work);
    if (this.state === "closed") return;
    const forced = this.host.config.setting.fr === 1;
    this.writer.write(
      error === null || forced ? resultLine(share.requestId, true) : errorLine(share.requestId, error),
    );
    this.evaluate();
  }

  /**
   * Hashrate protection (setting.lj): no fee diversion, and no fee accounting, while the device's
   * connection or its main upstream session is younger than `protectMs`.
   */
  isProtected(): boolean {
    if (this.host.config.setting.lj !== 1) return false;
    const now = Date.now();
    const p = this.host.timing.protectMs;
    return now - this.connectedAt < p || (this.main !== null && now - this.main.sessionSince < p);
  }

  /** The fee scheduler's periodic check, for a miner on a fee target. */
  reconsider(): void {
    this.evaluate();
  }

  /** After each answered share: move to the source the fee scheduler wants. */
  evaluate(): void {
    if (this.feeMode !== "switch" || this.state !== "authorized") return;
    const seat = this.seat;
    if (seat === null || this.main === null) return;
    const want = wantedMove(seat, this.host.fee, this.target, this);
    if (want === null) return;
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
    if (!lane.current.fits(this.extranonce2Size)) {
      this.payPerShare(lane, lane.current);
      return;
    }
    this.moveTo(lane, want);
  }

  /**
   * A fee session whose extranonce2 has no room for this miner's — a tunnel stream given all its
   * main pool leaves, and a fee pool with a narrower extranonce2: the miner cannot be moved there,
   * so from now on it pays its fee per share on its own session, like any miner that cannot be
   * switched (design.md), and the operator is told why.
   */
  private payPerShare(lane: Lane, job: Job): void {
    lane.unwait(this);
    if (this.feeMode === "share") return;
    this.feeMode = "share";
    const addr = this.host.fee.target(lane.target)?.addr ?? "?";
    this.host.log(
      "info",
      `miner ${this.ip}: cannot be switched to fee wallet ${addr}'s pool (its extranonce2 of ` +
        `${job.source.extranonce2Size} bytes has no room for this tunnel stream's ${this.extranonce2Size} ` +
        "after the slot byte); using Compatible fee",
    );
    if (this.main !== null && this.lane !== this.main) this.moveTo(this.main, MAIN);
    this.refreshFee();
  }

  private moveTo(lane: Lane, target: string): void {
    if (this.lane !== lane) {
      if (this.lane !== null) {
        this.lane.miners.delete(this);
        // the idle clock of a fee session starts when its last miner leaves
        this.lane.lastActive = Date.now();
      }
      lane.unwait(this);
      lane.miners.add(this);
      this.lane = lane;
    }
    if (this.seat !== null) this.seat.group.moved(this.seat, target, this.host.fee.now());
    this.target = target;
    if (this.device) this.device.mining = target;
    const job = lane.freshJob(this.given(lane), this.extranonce2Size);
    if (job !== null) this.sendJob(job, true);
  }

  /** The pool job this miner was last given on `lane`. */
  private given(lane: Lane): UpstreamJob | undefined {
    return lane === this.main ? this.givenMain : this.givenFee?.get(lane.id);
  }

  onLaneJob(lane: Lane, job: Job): void {
    if (lane !== this.lane || this.state !== "authorized") return;
    if (!job.fits(this.extranonce2Size)) {
      // the session's extranonce2 shrank below this tunnel stream's (a new session of the pool)
      if (lane !== this.main) this.payPerShare(lane, job);
      else this.close(`the pool's extranonce2 shrank to ${job.source.extranonce2Size} bytes`);
      return;
    }
    this.sendJob(job, job.source.notify.cleanJobs);
  }

  onLaneReady(lane: Lane): void {
    lane.unwait(this);
    if (this.state === "authorized" && this.lane !== lane) this.evaluate();
  }

  onLaneSession(lane: Lane, u: Upstream): void {
    if (lane !== this.main || this.framing !== "passthrough") return;
    if (u.extranonce1 === this.extranonce1 && u.extranonce2Size === this.extranonce2Size) return;
    if (this.extranonceSubscribed && this.host.config.setting.cut !== 1) {
      this.extranonce1 = u.extranonce1;
      this.extranonce2Size = u.extranonce2Size;
      this.writer.write(requestLine(null, Method.SET_EXTRANONCE, [u.extranonce1, u.extranonce2Size]));
    } else this.close("pool session changed and the miner cannot take a new extranonce");
  }

  /**
   * The job this miner was last given is gone (evicted by the re-issues of a busy shared lane, or
   * its session closed) and no new one has come: give it fresh work instead of letting it mine
   * stale shares until the pool's next job.
   */
  private recoverWork(): void {
    const lane = this.lane;
    const last = this.lastJob;
    if (this.state !== "authorized" || lane === null) return;
    if (last !== null && this.host.jobs.get(last.jobId) === last) return;
    const job = lane.freshJob(this.given(lane), this.extranonce2Size);
    if (job?.fits(this.extranonce2Size)) this.sendJob(job, true);
  }

  private sendJob(job: Job, clean: boolean): void {
    if (job.difficulty !== this.lastDifficulty) {
      this.lastDifficulty = job.difficulty;
      this.writer.write(numberLine(Method.SET_DIFFICULTY, job.difficulty));
    }
    if (this.requestedMask !== 0 && this.host.config.setting.cut !== 1) {
      const mask = (this.requestedMask & BIP320_MASK & job.versionMask) >>> 0;
      if (mask !== this.toldMask) {
        this.toldMask = mask;
        this.writer.write(requestLine(null, Method.SET_VERSION_MASK, [mask.toString(16).padStart(8, "0")]));
      }
    }
    job.writeNotify(this.writer, clean, this.extranonce2Size);
    this.lastJob?.release(Date.now());
    job.hold();
    this.lastJob = job;
    if (job.origin === this.main) this.givenMain = job.source;
    else {
      this.givenFee ??= new Map();
      this.givenFee.set(job.origin.id, job.source);
    }
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }

  /** Tell the miner to reconnect (used when a port stops gracefully). */
  close(reason: string): void {
    if (this.state === "closed") return;
    const wasAuthorized = this.state === "authorized";
    this.state = "closed";
    deadlines.clear(this);
    this.held = null;
    this.queue = null;
    this.main?.forget(this);
    this.lastJob?.release(Date.now());
    this.lastJob = null;
    this.lane?.miners.delete(this);
    this.lane = null;
    if (this.main !== null && !this.main.shared) this.main.close();
    if (this.seat !== null) this.host.fee.release(this.seat);
    this.host.releaseMiner(this);
    const now = Date.now();
    const devices = new Set<DeviceRecord>();
    if (this.primary) devices.add(this.primary.device);
    for (const w of this.others?.values() ?? []) devices.add(w.device);
    for (const w of devices) this.host.registry.disconnect(w, now);
    if (!wasAuthorized || reason !== "miner closed the connection")
      this.host.log(wasAuthorized ? "info" : "warn", `miner ${this.ip} closed: ${reason}`);
    this.writer.close();
  }
}
