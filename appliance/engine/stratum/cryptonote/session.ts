/**
 * MinerSession: one connected xmrig-style miner. An explicit state machine (connected → logging-in
 * → ready → closed) that handles its lines strictly in order, answers keepalived itself, and sends
 * each share to the session that issued its job after checking that the nonce kept the byte the
 * miner was given. Errors on the share path are data, answered as `{"code":-1,"message":...}`;
 * only the connection edge closes sockets.
 */
import type { EngineTiming, LogLevel } from "../../../domain/engine.ts";
import type { Port } from "../../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../../stats/device-registry.ts";
import { MAIN } from "../../../stats/work-split.ts";
import { deadlines } from "../../deadlines.ts";
import type { FeeSeat } from "../../fee/fee-group.ts";
import type { FeeScheduler } from "../../fee/scheduler.ts";
import type { ModeStrategy } from "../../modes/mode.ts";
import { joinUser, rewriteIdentity, splitUser } from "../../rewrite.ts";
import { type ByteSocket, LineWriter } from "../../transport/line-writer.ts";
import type { MinerConnection } from "../family.ts";
import { intern } from "../intern.ts";
import type { LaneWaiter } from "../lane-waiters.ts";
import { LineSplitter, MAX_LINE_BYTES } from "../line-codec.ts";
import { parseMessage, type StratumId } from "../message.ts";
import { MinerShare } from "../movable-miner.ts";
import { hashrateProtected, shareAnswered, shareSent, wantedMove } from "../share-accounting.ts";
import { CnError, Errors, isStale } from "./errors.ts";
import type { Job, JobTable } from "./job.ts";
import type { Lane, LaneMiner } from "./lane.ts";
import { jobParams, type Login, type PoolJob, parseLogin, parseRpcId, parseSubmit } from "./messages.ts";
import { Method, MINER_EXTENSIONS } from "./methods.ts";
import { submittedByte } from "./nonce.ts";
import type { NonceSpace } from "./nonce-space.ts";
import { LOGIN_REFUSED, type UpstreamLogin } from "./upstream.ts";

export type MinerState = "connected" | "logging-in" | "ready" | "closed";

/** Malformed lines, unknown methods and refused requests tolerated before the connection is closed. */
export const MAX_STRIKES = 20;
/** Lines queued while the login waits for the pool. */
const MAX_QUEUED_LINES = 64;

export interface SessionHost {
  readonly portId: number;
  readonly config: Port;
  readonly category: string;
  readonly factor: number;
  readonly mode: ModeStrategy;
  readonly jobs: JobTable;
  readonly registry: DeviceRegistry;
  readonly fee: FeeScheduler;
  readonly timing: EngineTiming;
  isWalletBanned(wallet: string): boolean;
  log(level: LogLevel, message: string): void;
  /**
   * the miner's own session (Efficient; the miner's home, which the host finds it by) or the port's
   * shared main sessions (Pool); null: no pool
   */
  mainSpace(login: UpstreamLogin, agent: string): NonceSpace | null;
  /** the shared sessions of a fee target (opened on demand); null when it has no pool */
  feeSpace(key: string): NonceSpace | null;
  /** a fee pool mines another coin or epoch than the miner's main pool: logged once per target */
  feeMismatch(key: string, fee: PoolJob, main: PoolJob): void;
  releaseMiner(miner: MinerSession): void;
}

let nextMinerId = 1;

const answer = (id: StratumId, result: unknown): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", error: null, result })}\n`;
const refusal = (id: StratumId, error: CnError): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", error, result: null })}\n`;
const OK = { status: "OK" };

/** A login held until its lane has a job to give; the lines after it wait too. */
interface HeldLogin {
  readonly id: StratumId;
  readonly original: { readonly wallet: string; readonly name: string };
  readonly upstreamUser: string;
  readonly lane: Lane;
}

export class MinerSession implements LaneMiner, MinerConnection, LaneWaiter {
  readonly id = nextMinerId++;
  /** its place among the port's miners (roster.ts) */
  portIndex = -1;
  state: MinerState = "connected";
  /** the rpc id the miner must name in submit and keepalived */
  readonly rpcId: string;
  agent = "";
  /** where the miner's main work comes from */
  home: NonceSpace | null = null;
  /** the lane whose jobs this miner mines now */
  lane: Lane | null = null;
  /** "main" or the fee key of the lane the miner mines on */
  target = MAIN;
  /** the miner's main session passes the pool's blob unchanged: it cannot be moved */
  private pinned = false;
  readonly connectedAt = Date.now();
  device: DeviceRecord | null = null;
  private seat: FeeSeat | null = null;
  /** the latest main job sent, whose coin (seed, algorithm) a fee pool must match */
  private mainJob: PoolJob | null = null;
  private strikes = 0;
  private windowStart = 0;
  private windowLines = 0;
  private queue: string[] | null = null;
  private held: HeldLogin | null = null;
  /**
   * The login deadline, and while the login waits for its lane's first job the wait for it, in the
   * thread's deadline sweep (deadlines.ts): a timer per miner was garbage on every login.
   */
  deadlineIndex = -1;
  deadlineAt = 0;
  readonly splitter: LineSplitter;
  readonly writer: LineWriter;

  constructor(
    private readonly host: SessionHost,
    socket: ByteSocket,
    readonly ip: string,
  ) {
    this.rpcId = `${this.id.toString(16)}${Math.random().toString(16).slice(2, 10)}`;
    this.writer = new LineWriter(socket);
    this.splitter = new LineSplitter(MAX_LINE_BYTES, this);
    deadlines.set(this, host.timing.loginTimeoutMs);
  }

  onData(chunk: Uint8Array): void {
    this.splitter.push(chunk);
  }

  onDrain(): void {
    this.writer.drain();
  }

  onOverflow(): void {
    this.close("line too long");
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

  /** The held login is answered: the lines that came meanwhile are handled in order. */
  private resume(): void {
    const q = this.queue;
    while (this.held === null && q !== null && q.length > 0 && this.state !== "closed")
      this.handle(q.shift() as string);
    if (this.queue?.length === 0) this.queue = null;
  }

  private strike(id: StratumId, error: CnError): void {
    this.writer.write(refusal(id, error));
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
  }

  private handle(line: string): void {
    const m = parseMessage(line);
    if (m === null) {
      this.strike(null, Errors.malformed("not a JSON-RPC object"));
      return;
    }
    if (m.kind === "response") return;
    switch (m.method) {
      case Method.LOGIN:
        this.login(m.id, m.params);
        return;
      case Method.SUBMIT:
        this.submit(m.id, m.params);
        return;
      case Method.KEEPALIVED:
        if (this.state !== "ready" || parseRpcId(m.params) !== this.rpcId)
          this.strike(m.id, Errors.unauthenticated());
        else this.writer.write(answer(m.id, { status: "KEEPALIVED" }));
        return;
      case Method.GETJOB:
        this.getjob(m.id, m.params);
        return;
      default:
        this.host.log("warn", `miner ${this.ip}: unknown method ${m.method.slice(0, 40)}`);
        this.strike(m.id, Errors.unknownMethod());
    }
  }

  /** login: answered with the first job once the miner's lane has one (a held request until then). */
  private login(id: StratumId, params: unknown): void {
    const l = parseLogin(params);
    if (!("login" in l)) {
      this.strike(id, l);
      return;
    }
    if (this.state !== "connected") {
      this.strike(id, Errors.alreadyLoggedIn());
      return;
    }
    this.state = "logging-in";
    // xmrig's login is "wallet" or "wallet.worker"; rig-id names the worker when given.
    const split = splitUser(l.login);
    const original = { wallet: intern(split.wallet), name: l.rigid ?? split.name };
    if (this.host.isWalletBanned(original.wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${original.wallet} is banned`);
      this.writer.write(refusal(id, Errors.unauthenticated()));
      this.close("banned wallet");
      return;
    }
    this.agent = intern(l.agent);
    const ident = rewriteIdentity(original, this.host.config);
    const upstream = this.upstreamLogin(l, intern(joinUser(ident)), ident.name);
    const home = this.host.mainSpace(upstream, this.agent);
    if (home === null) {
      this.writer.write(refusal(id, Errors.noPool()));
      this.close("no pool configured");
      return;
    }
    this.home = home;
    const held: HeldLogin = { id, original, upstreamUser: upstream.user, lane: home.place(this) };
    if (held.lane.current !== null) {
      this.loggedIn(held, true);
      return;
    }
    this.held = held;
    deadlines.set(this, Math.min(this.host.timing.connectTimeoutMs * 2, this.loginLeft()));
    held.lane.awaitJob(this);
  }

  /** What remains of the login deadline. */
  private loginLeft(): number {
    return this.connectedAt + this.host.timing.loginTimeoutMs - Date.now();
  }

  onLaneUsable(lane: object, ok: boolean): void {
    const held = this.held;
    if (held === null || lane !== held.lane || this.state === "closed") return;
    this.held = null;
    deadlines.set(this, Math.max(0, this.loginLeft()));
    this.loggedIn(held, ok);
    this.resume();
  }

  /** The login deadline passed, or the wait for the lane's first job did. */
  onDeadline(): void {
    const held = this.held;
    if (held === null) {
      this.close("login timeout");
      return;
    }
    this.held = null;
    held.lane.forget(this);
    this.loggedIn(held, false);
  }

  /** The held login's lane has a job (`ok`), or none to give: the miner is in, or refused and closed. */
  private loggedIn(held: HeldLogin, ok: boolean): void {
    const { id, original, lane } = held;
    const job = ok ? lane.issue() : null;
    if (job === null) {
      const why = lane.lastError ? `: ${lane.lastError}` : "";
      // xmrig shows the pool's own refusal (a bad wallet, a ban) to its operator
      const refused = !this.home?.shared && lane.lastError.startsWith(LOGIN_REFUSED);
      this.writer.write(refusal(id, refused ? new CnError(lane.lastError) : Errors.noPool()));
      this.close(`pool unavailable at login${why}`);
      return;
    }
    const now = Date.now();
    const device = this.host.registry.connect(
      this.host.portId,
      original.wallet,
      original.name,
      this.ip,
      this.host.category,
      now,
    );
    device.upstreamUser = held.upstreamUser;
    device.agent = this.agent;
    this.device = device;
    this.state = "ready";
    deadlines.clear(this);
    this.pinned = !job.source.splittable;
    if (this.pinned && this.host.fee.targets.length > 0)
      this.host.log(
        "info",
        `miner ${this.ip}: its pool fixes the nonce's top byte, so it cannot be switched; no fee is taken from it`,
      );
    this.seat = this.host.fee.seat(device, this);
    device.feeRatio = this.host.fee.configuredFor(device);
    this.attach(lane, MAIN, job, false);
    this.writer.write(
      answer(id, {
        id: this.rpcId,
        job: jobParams(job.source, job.jobId, job.blob),
        extensions: MINER_EXTENSIONS,
        status: "OK",
      }),
    );
  }

  /** Who the pool sees: Pool mode logs its shared sessions in as the unified identity, not the miner. */
  private upstreamLogin(l: Login, user: string, name: string): UpstreamLogin {
    return { user, pass: l.pass, rigid: name || null, algos: l.algos };
  }

  private getjob(id: StratumId, params: unknown): void {
    if (this.state !== "ready" || parseRpcId(params) !== this.rpcId) {
      this.strike(id, Errors.unauthenticated());
      return;
    }
    const lane = this.lane;
    const job = lane?.issue() ?? null;
    if (lane === null || job === null) {
      this.writer.write(refusal(id, Errors.noPool()));
      return;
    }
    this.given(job);
    this.writer.write(answer(id, jobParams(job.source, job.jobId, job.blob)));
  }

  /** Fee wallets or an override changed. */
  refreshFee(): void {
    const d = this.device;
    if (d === null) return;
    d.feeRatio = this.host.fee.configuredFor(d);
    if (this.seat !== null) this.host.fee.regroup(this.seat);
    if (this.target !== MAIN && this.host.fee.target(this.target) === undefined) this.goMain();
  }

  private submit(id: StratumId, params: unknown): void {
    if (this.state !== "ready") {
      this.strike(id, Errors.unauthenticated());
      return;
    }
    const s = parseSubmit(params);
    if (!("nonce" in s)) {
      this.strike(id, s);
      return;
    }
    if (s.rpcId !== this.rpcId) {
      this.strike(id, Errors.unauthenticated());
      return;
    }
    const device = this.device as DeviceRecord;
    const job = this.host.jobs.get(s.jobId);
    if (job === undefined || !job.upstream.isReady) {
      this.localVerdict(id, device, "stale", Errors.unknownJob());
      return;
    }
    if (submittedByte(s.nonce) !== job.byte) {
      // Another miner owns that byte: forwarding would give the pool duplicates of its work.
      this.localVerdict(id, device, "invalid", Errors.badNonceByte());
      if (++this.strikes > MAX_STRIKES) this.close("too many shares outside the reserved nonce byte");
      return;
    }
    const work = job.difficulty * this.host.factor;
    const target = job.origin.target;
    const ledger = shareSent(this.host.fee, this.seat as FeeSeat, device, target, work);
    const ticket = new MinerShare(this, id, target, work, device, ledger);
    job.upstream.submit(job.source.jobId, s.nonce, s.result, s.algo, ticket);
  }

  private localVerdict(id: StratumId, device: DeviceRecord, outcome: ShareOutcome, error: CnError): void {
    this.host.registry.result(device, outcome, MAIN, 0, 0, false, Date.now());
    this.writer.write(this.host.config.setting.fr === 1 ? answer(id, OK) : refusal(id, error));
  }

  onShareResult(share: MinerShare<CnError>, error: CnError | null, latencyMs: number): void {
    const outcome: ShareOutcome = error === null ? "valid" : isStale(error) ? "stale" : "invalid";
    shareAnswered(this.host.registry, share, outcome, latencyMs, !this.isProtected());
    if (this.state === "closed") return;
    const forced = this.host.config.setting.fr === 1;
    this.writer.write(
      error === null || forced ? answer(share.requestId, OK) : refusal(share.requestId, error),
    );
    this.evaluate();
  }

  /** Hashrate protection (setting.lj), as in docs/engine.md. */
  isProtected(): boolean {
    const mainSince = this.home?.lanes[0]?.sessionSince ?? null;
    return hashrateProtected(this.host.config, this.host.timing, this.connectedAt, mainSince);
  }

  /** The fee scheduler's periodic check, for a miner on a fee target. */
  reconsider(): void {
    this.evaluate();
  }

  /** After each answered share: move to the source the fee scheduler wants. */
  evaluate(): void {
    if (this.state !== "ready" || this.pinned) return;
    const seat = this.seat;
    if (seat === null || this.home === null) return;
    const want = wantedMove(seat, this.host.fee, this.target, this);
    if (want === null) return;
    if (want === MAIN) {
      this.goMain();
      return;
    }
    const space = this.host.feeSpace(want);
    if (space === null) return;
    const lane = space.place(this);
    if (lane.current === null) {
      lane.waiting.add(this);
      return;
    }
    const main = this.mainJob;
    if (main !== null && !sameCoin(lane.current, main)) {
      this.host.feeMismatch(want, lane.current, main);
      return;
    }
    const job = lane.issue();
    if (job !== null) this.attach(lane, want, job);
  }

  private goMain(): void {
    const home = this.home;
    if (home === null) return;
    const lane = home.place(this);
    const job = lane.issue();
    // No job (the main session is reconnecting) or no byte left: stay until the lane's next job.
    if (job === null) {
      if (lane.current === null) this.moveLane(lane);
      return;
    }
    this.attach(lane, MAIN, job);
  }

  private moveLane(lane: Lane): void {
    if (this.lane === lane) return;
    if (this.lane !== null) {
      this.lane.miners.delete(this);
      // the idle clock of a fee session starts when its last miner leaves
      this.lane.lastActive = Date.now();
    }
    lane.waiting.delete(this);
    lane.miners.add(this);
    this.lane = lane;
  }

  /** Mine `job` of `lane` for `target` from now on; `send`: push it (the login answer carries the first). */
  private attach(lane: Lane, target: string, job: Job, send = true): void {
    this.moveLane(lane);
    if (this.seat !== null) this.seat.group.moved(this.seat, target, this.host.fee.now());
    this.target = target;
    if (this.device) this.device.mining = target;
    this.given(job);
    if (send) this.sendJob(job);
  }

  private given(job: Job): void {
    if (job.origin.target === MAIN) this.mainJob = job.source;
    const d = this.device;
    if (d !== null) {
      d.lastJobAt = Date.now();
      d.difficulty = job.difficulty;
    }
  }

  private sendJob(job: Job): void {
    this.writer.writeJoined(job.line());
  }

  onLaneJob(lane: Lane): void {
    if (lane !== this.lane || this.state !== "ready") return;
    if (lane.target === MAIN) {
      this.goMain();
      return;
    }
    const next = lane.current;
    // a fee pool that moved to another seed (epoch) than the main pool is left at once
    const job =
      next !== null && (this.mainJob === null || sameCoin(next, this.mainJob)) ? lane.issue() : null;
    if (job !== null) this.attach(lane, lane.target, job);
    else this.goMain();
  }

  /**
   * A fee pool dropped: back to the main pool at once rather than mining work nobody can take (the
   * scheduler sends the miner back when the fee session is up again). A main session that drops
   * reconnects, and its miners get the new session's first job.
   */
  onLaneDown(lane: Lane): void {
    if (lane === this.lane && lane.target !== MAIN && this.state === "ready") this.goMain();
  }

  onLaneReady(lane: Lane): void {
    lane.waiting.delete(this);
    if (this.state === "ready" && this.lane !== lane) this.evaluate();
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    const wasReady = this.state === "ready";
    this.state = "closed";
    deadlines.clear(this);
    this.held?.lane.forget(this);
    this.held = null;
    this.queue = null;
    this.lane?.miners.delete(this);
    this.lane = null;
    if (this.seat !== null) this.host.fee.release(this.seat);
    this.host.releaseMiner(this);
    if (this.device !== null) this.host.registry.disconnect(this.device, Date.now());
    if (!wasReady || reason !== "miner closed the connection")
      this.host.log(wasReady ? "info" : "warn", `miner ${this.ip} closed: ${reason}`);
    this.writer.close();
  }
}

/** The same coin and epoch: RandomX's key and (when both say) the algorithm variant. */
const sameCoin = (a: PoolJob, b: PoolJob): boolean =>
  a.seedHash === b.seedHash && (a.algo === null || b.algo === null || a.algo === b.algo);
