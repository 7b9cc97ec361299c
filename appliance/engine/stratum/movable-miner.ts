/**
 * MovableMiner: what the miner sessions share in the families that move a miner between pool
 * sessions by its nonce prefix (Ethereum, Kaspa, Alephium, KawPow, Equihash):
 * - the connection's edges: lines bounded and handled in order (MinerIntake), the login deadline,
 *   strikes for bad requests, the close;
 * - the login's waits: a subscribe or login held until the miner's main lane is usable, a worker
 *   until the pool has answered its authorize; the lines after it wait too;
 * - the login's end: the wallet ban check, the worker the pool sees, the device record, the fee mode
 *   (a miner that cannot be moved pays per share, Compatible-style) and the miner's fee seat;
 * - a share's accounting: in flight for its target, its answer settled, counted and written back;
 * - the fee moves: after every answered share, and at the scheduler's periodic check, the miner
 *   moves to the lane the scheduler wants (the main pool's, or a fee wallet's once it has work),
 *   unless hashrate protection holds it on the main pool; a fee lane that goes down sends it back.
 *   A move is the lane's current job, which the family writes with whatever its miners need first
 *   (mining.set_extranonce with the lane's prefix, a difficulty or a target).
 * A family's session says how it reads its lines and logs a miner in, how it answers and refuses,
 * what it checks in a share and how it writes a job.
 *
 * A base class, not a helper object each session holds: the moves and the share path read and write
 * the same fields, so a second object per miner would only add memory (the budgets count bytes per
 * miner) and a hop on every share. Nothing here allocates per share but the share's own ticket.
 *
 * The Bitcoin and CryptoNote sessions are not MovableMiners. Bitcoin's keeps its intake inline (no
 * MinerIntake object per miner), several workers per connection, lanes whose waiting and slot sets
 * are made on first use, and moves a miner by a re-issued job: its budget is the tightest and none of
 * that would fit without costing memory. CryptoNote's moves a miner by issuing it a job on a free
 * nonce byte of the target's lanes; it shares the share ticket (MinerShare) and the ledger rules.
 */

import type { EngineTiming, LogLevel } from "../../domain/engine.ts";
import type { Port } from "../../domain/port.ts";
import type { DeviceRecord, DeviceRegistry, ShareOutcome } from "../../stats/device-registry.ts";
import { MAIN, type WorkSplit } from "../../stats/work-split.ts";
import { deadlines } from "../deadlines.ts";
import type { FeeSeat } from "../fee/fee-group.ts";
import type { FeeScheduler } from "../fee/scheduler.ts";
import type { FeeTarget } from "../fee/targets.ts";
import type { Membership } from "../few-map.ts";
import { chooseFeeMode, type FeeMode, type ModeStrategy } from "../modes/mode.ts";
import { joinUser, rewriteIdentity, splitUser } from "../rewrite.ts";
import type { Roster } from "../roster.ts";
import { type ByteSocket, LineWriter } from "../transport/line-writer.ts";
import type { MinerConnection } from "./family.ts";
import { intern } from "./intern.ts";
import type { LaneWaiter } from "./lane-waiters.ts";
import type { StratumId } from "./message.ts";
import { type IntakeOwner, MinerIntake } from "./miner-intake.ts";
import type { SlotMiner } from "./pool-lane.ts";
import type { AuthorizeWaiter } from "./pool-session.ts";
import { feeWorkerFor, hashrateProtected, shareAnswered, shareSent, wantedMove } from "./share-accounting.ts";
import { slotHex } from "./slot-bytes.ts";

export type MinerState = "connected" | "subscribed" | "authorized" | "closed";

/** Malformed lines, unknown methods and refused requests tolerated before the connection is closed. */
export const MAX_STRIKES = 20;

/** A share-path error of any family: a stratum code and a message. */
export interface MinerError {
  readonly code: number;
  readonly message: string;
}

/** The refusals the shared part writes, each family in its own codes. */
export type Refusal = "other" | "unauthorized";

/** A lane as a moving miner sees it (a family's PoolLane). */
export interface MinerLane<J> {
  readonly target: string;
  readonly shared: boolean;
  readonly current: J | null;
  readonly sessionSince: number;
  lastActive: number;
  readonly miners: Roster<"laneIndex", SlotMiner>;
  readonly waiting: Set<SlotMiner>;
  /** its session now, and the prefix the pool gave it */
  readonly upstream: { readonly extranonce: string } | null;
  /** a login can be answered now (PoolLane's `usable`) */
  readonly usable: boolean;
  /** why the pool refused this dedicated lane's login, once it has */
  readonly refusal: string | null;
  awaitUsable(w: LaneWaiter): void;
  forget(w: LaneWaiter): void;
  unwait(m: SlotMiner): void;
  close(): void;
  /** authorizes a worker on the lane's sessions (the families with Compatible-style fee) */
  addUser?(user: string, password: string, waiter: AuthorizeWaiter | null): void;
}

/** A lane that logs workers in on its sessions. */
export interface WorkerLane {
  addUser(user: string, password: string, waiter: AuthorizeWaiter | null): void;
}

/** What a running port gives a moving miner's session. */
export interface MovableHost<L> {
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
  /**
   * The miner's own session (logged in as `login` where the family's pools log in per session), or
   * its place on a shared main lane; null when no pool is configured.
   */
  mainLane(miner: SlotMiner, login?: { readonly user: string; readonly password: string } | null): L | null;
  /** the lane of a fee target holding the miner's slot (opened on demand); null when it has no pool */
  feeLane(miner: SlotMiner, key: string): L | null;
  releaseMiner(miner: SlotMiner): void;
}

/** Who a miner is: its wallet and worker name as it logged in, and the worker the pool sees. */
export interface Identity {
  readonly wallet: string;
  readonly name: string;
  readonly upstreamUser: string;
}

/**
 * A login request held until its answer is known, a field rather than a promise (the lines after it
 * wait in the intake): a subscribe or a login on the miner's own session until the main lane is
 * usable, a worker until the pool has answered its authorize.
 */
type HeldLogin = LaneWait | { readonly wait: "worker"; readonly id: StratumId; readonly who: Identity };
type LaneWait =
  | { readonly wait: "subscribe"; readonly id: StratumId }
  | { readonly wait: "login"; readonly id: StratumId; readonly who: Identity };

/** The miner behind a share ticket. */
interface ShareOwner<E> {
  onShareResult(share: MinerShare<E>, error: E | null, latencyMs: number): void;
}

/** A share sent to a pool: the pool's answer comes back to its miner through it. */
export class MinerShare<E> {
  constructor(
    readonly miner: ShareOwner<E>,
    readonly requestId: StratumId,
    readonly target: string,
    readonly work: number,
    readonly device: DeviceRecord,
    /** the fee group's ledger the share was counted in when sent */
    readonly ledger: WorkSplit,
  ) {}

  onResult(error: E | null, latencyMs: number): void {
    this.miner.onShareResult(this, error, latencyMs);
  }
}

export abstract class MovableMiner<L extends MinerLane<J>, J, E extends MinerError>
  implements MinerConnection, IntakeOwner, SlotMiner, ShareOwner<E>, LaneWaiter, AuthorizeWaiter
{
  state: MinerState = "connected";
  agent = "";
  feeMode: FeeMode = "switch";
  /** the lane whose jobs this miner mines now */
  lane: L | null = null;
  /** the miner's own session, or its place on a shared main lane */
  main: L | null = null;
  /** "main" or the fee key of the lane the miner mines on */
  target = MAIN;
  /** its place in the port's miners */
  portIndex = -1;
  /** its place in the miners of the lane it mines on */
  laneIndex = -1;
  readonly connectedAt = Date.now();
  protected device: DeviceRecord | null = null;
  /** this miner's place in the port's fee balancing, from its login on */
  protected seat: FeeSeat | null = null;
  private strikes = 0;
  private held: HeldLogin | null = null;
  /**
   * The login deadline, and while a subscribe or login waits for the main lane the wait for it, in
   * the thread's deadline sweep (deadlines.ts): a timer per miner was garbage on every login.
   */
  deadlineIndex = -1;
  deadlineAt = 0;
  private readonly intake: MinerIntake;
  protected readonly out: LineWriter;
  /** the jobs this miner may still submit shares for */
  protected abstract readonly sent: { clear(): void };

  constructor(
    protected readonly host: MovableHost<L>,
    socket: ByteSocket,
    readonly ip: string,
    readonly slot: number,
  ) {
    this.out = new LineWriter(socket);
    this.intake = new MinerIntake(this, host.timing.floodLinesPerSecond);
    deadlines.set(this, host.timing.loginTimeoutMs);
  }

  // ---- what the family says ----

  /** One line from the miner (a login may be held: `subscribeOn`, `loginOn`, `authorizeWorker`). */
  abstract handleLine(line: string): void;
  /** Writes a request's result the way the miner reads it. */
  protected abstract answer(id: StratumId, result: unknown): void;
  /** Writes a request's refusal the way the miner reads it. */
  protected abstract refuse(id: StratumId, error: E): void;
  /** A refusal of the shared part in the family's codes. */
  protected abstract refusal(kind: Refusal, message: string): E;
  /** A pool's refusal that means the job had expired, not that the share was bad. */
  protected abstract isStale(error: E): boolean;
  /** Sends a job, preceded by what the miner needs first for it (its prefix, difficulty or target). */
  protected abstract sendJob(job: J, clean: boolean): void;
  /** The login was answered true: the worker's state, then `authorized` with its fee mode. */
  protected abstract admitted(who: Identity, lane: L): void;
  /**
   * The families whose miners subscribe: answers the held mining.subscribe once the main lane is
   * usable (`poolPrefix`: the prefix its session was given).
   */
  protected subscribed?(id: StratumId, lane: L, poolPrefix: string): void;

  /** Whether fee target `want`'s current job suits this miner (seed-hash families: the main pool's epoch). */
  protected feeLaneFits(_want: string, _job: J): boolean {
    return true;
  }

  // ---- the connection ----

  onData(chunk: Uint8Array): void {
    this.intake.push(chunk);
  }

  onDrain(): void {
    this.out.drain();
  }

  get isClosed(): boolean {
    return this.state === "closed";
  }

  get isHolding(): boolean {
    return this.held !== null;
  }

  protected strike(id: StratumId, error: E): void {
    this.refuse(id, error);
    this.countStrike(error);
  }

  protected countStrike(error: E): void {
    if (++this.strikes > MAX_STRIKES) this.close(`too many bad requests (last: ${error.message})`);
  }

  close(reason: string): void {
    if (this.state === "closed") return;
    const wasAuthorized = this.state === "authorized";
    this.state = "closed";
    deadlines.clear(this);
    this.held = null;
    this.main?.forget(this);
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

  // ---- the login ----

  /** The ban check and the worker the pool sees; null when the wallet is banned (refused, closed). */
  protected identify(id: StratumId, user: string): Identity | null {
    const split = splitUser(user);
    const wallet = intern(split.wallet);
    const name = split.name;
    if (this.host.isWalletBanned(wallet)) {
      this.host.log("warn", `miner ${this.ip}: wallet ${wallet} is banned`);
      this.refuse(id, this.refusal("unauthorized", "wallet banned"));
      this.close("banned wallet");
      return null;
    }
    const upstreamUser = intern(joinUser(rewriteIdentity({ wallet, name }, this.host.config)));
    return { wallet, name, upstreamUser };
  }

  /** The miner's main lane from now on; null when no pool is configured (refused and closed). */
  private joinMain(id: StratumId, lane: L | null): L | null {
    if (lane === null) {
      this.refuse(id, this.refusal("other", "no pool configured"));
      this.close("no pool configured");
      return null;
    }
    this.main = lane;
    return lane;
  }

  /**
   * mining.subscribe on the miner's main lane (null: no pool configured): answered by the family's
   * `subscribed` once the lane is usable, or refused ("pool unavailable") and closed.
   */
  protected subscribeOn(id: StratumId, lane: L | null): void {
    const main = this.joinMain(id, lane);
    if (main !== null) this.holdFor({ wait: "subscribe", id }, main);
  }

  /**
   * A login the pool answers on the miner's own session (`lane`, logged in as `who`): answered once
   * the lane is usable, or refused (the pool's refusal of the login, or "pool unavailable") and closed.
   */
  protected loginOn(id: StratumId, who: Identity, lane: L | null): void {
    const main = this.joinMain(id, lane);
    if (main !== null) this.holdFor({ wait: "login", id, who }, main);
  }

  /** Answers `held` now when the lane is usable, else holds it until the lane says (or the wait ends). */
  private holdFor(held: LaneWait, lane: L): void {
    if (lane.usable) {
      this.laneAnswered(held, lane, true);
      return;
    }
    this.held = held;
    deadlines.set(this, Math.min(this.host.timing.connectTimeoutMs * 2, this.loginLeft()));
    lane.awaitUsable(this);
  }

  /** What remains of the login deadline. */
  private loginLeft(): number {
    return this.connectedAt + this.host.timing.loginTimeoutMs - Date.now();
  }

  onLaneUsable(lane: object, ok: boolean): void {
    const held = this.held;
    if (held === null || held.wait === "worker" || lane !== this.main || this.state === "closed") return;
    this.held = null;
    deadlines.set(this, Math.max(0, this.loginLeft()));
    this.laneAnswered(held, this.main, ok);
    this.intake.resume();
  }

  /** The login deadline passed, or the wait for the main lane did. */
  onDeadline(): void {
    const held = this.held;
    this.held = null;
    if (held !== null && held.wait !== "worker" && this.main !== null)
      this.laneAnswered(held, this.main, false);
    else this.close("login timeout");
  }

  private laneAnswered(held: LaneWait, lane: L, ok: boolean): void {
    if (held.wait === "subscribe") {
      const u = lane.upstream;
      if (!ok || u === null) {
        this.refuse(held.id, this.refusal("other", "pool unavailable"));
        this.close("pool unavailable at subscribe");
      } else this.subscribed?.(held.id, lane, u.extranonce);
      return;
    }
    if (ok) {
      this.admit(held.id, held.who, lane);
      return;
    }
    const why = lane.refusal ?? "pool unavailable";
    this.refuse(held.id, this.refusal(lane.refusal === null ? "other" : "unauthorized", why));
    this.close(`${why} at login`);
  }

  /**
   * mining.authorize of a subscribed miner on its main lane: one worker per connection (further names
   * mine under the first), the ban check, then the miner's own session logs the worker in (a shared
   * session is logged in as the port's identity), and the login is answered once the pool has.
   */
  protected authorizeWorker(id: StratumId, lane: L & WorkerLane, user: string, password: string): void {
    if (this.state === "authorized") {
      // one worker per connection: further names mine under the first
      this.answer(id, true);
      return;
    }
    const who = this.identify(id, user);
    if (who === null) return;
    if (lane.shared) {
      this.admit(id, who, lane);
      return;
    }
    this.held = { wait: "worker", id, who };
    lane.addUser(who.upstreamUser, password, this);
  }

  onPoolAuthorize(user: string, ok: boolean): void {
    const held = this.held;
    if (held?.wait !== "worker" || held.who.upstreamUser !== user || this.state === "closed") return;
    this.held = null;
    if (ok) this.admit(held.id, held.who, this.main as L);
    else this.refuse(held.id, this.refusal("unauthorized", "pool refused the worker"));
    this.intake.resume();
  }

  private admit(id: StratumId, who: Identity, lane: L): void {
    this.answer(id, true);
    this.admitted(who, lane);
  }

  /**
   * The pool took the miner's login: its device record, its fee mode (`movable`: it can be moved
   * between pool sessions), its fee seat, then its main lane's work.
   */
  protected authorized(who: Identity, lane: L, movable: boolean): void {
    const device = this.host.registry.connect(
      this.host.portId,
      who.wallet,
      who.name,
      this.ip,
      this.host.category,
      Date.now(),
    );
    device.upstreamUser = who.upstreamUser;
    device.agent = this.agent;
    this.device = device;
    this.state = "authorized";
    deadlines.clear(this);
    this.feeMode = chooseFeeMode(
      this.host.mode,
      movable,
      this.ip,
      this.host.fee.targets.length > 0,
      this.host,
      "no mining.extranonce.subscribe",
    );
    this.seat = this.host.fee.seat(device, this);
    this.refreshFee();
    this.moveTo(lane, MAIN);
  }

  /** Fee wallets or an override changed (or the miner just logged in). */
  refreshFee(): void {
    const d = this.device;
    if (d === null) return;
    const fee = this.host.fee;
    d.feeRatio = fee.configuredFor(d);
    if (this.seat !== null) fee.regroup(this.seat);
    if (this.feeMode === "share" && this.main !== null) this.authorizeFeeWorkers(this.main);
    if (this.target !== MAIN && fee.target(this.target) === undefined && this.main)
      this.moveTo(this.main, MAIN);
  }

  /** Compatible-style fee: the fee workers are authorized on the miner's own main session. */
  protected authorizeFeeWorkers(main: L): void {
    for (const t of this.host.fee.targets) if (t.ratio > 0) main.addUser?.(t.user, "x", null);
  }

  // ---- shares ----

  /**
   * Compatible-style fee (per share, on the miner's own session): the fee wallet the miner's group
   * owes this share to, when its worker is authorized on the job's session; else undefined.
   */
  protected feeWorker(work: number, authorized: Membership<string>): FeeTarget | undefined {
    const fee = this.host.fee;
    if (this.feeMode !== "share" || fee.targets.length === 0 || this.isProtected()) return undefined;
    return feeWorkerFor(this.seat as FeeSeat, fee, work, authorized);
  }

  /** The checks passed: the share is in flight for `target`; its ticket carries the pool's answer back. */
  protected shareTicket(id: StratumId, target: string, work: number): MinerShare<E> {
    const seat = this.seat as FeeSeat;
    const device = this.device as DeviceRecord;
    const ledger = shareSent(this.host.fee, seat, device, target, work);
    return new MinerShare(this, id, target, work, device, ledger);
  }

  /** A share refused (or, with forced success, accepted) before it reached the pool. */
  protected localVerdict(id: StratumId, outcome: ShareOutcome, error: E): void {
    if (this.device !== null) this.host.registry.result(this.device, outcome, MAIN, 0, 0, false, Date.now());
    if (this.host.config.setting.fr === 1) this.answer(id, true);
    else this.refuse(id, error);
  }

  onShareResult(share: MinerShare<E>, error: E | null, latencyMs: number): void {
    const outcome: ShareOutcome = error === null ? "valid" : this.isStale(error) ? "stale" : "invalid";
    shareAnswered(this.host.registry, share, outcome, latencyMs, !this.isProtected());
    if (this.state === "closed") return;
    if (error === null || this.host.config.setting.fr === 1) this.answer(share.requestId, true);
    else this.refuse(share.requestId, error);
    this.evaluate();
  }

  // ---- fee moves ----

  /** Hashrate protection (setting.lj), as in docs/engine.md. */
  isProtected(): boolean {
    return hashrateProtected(
      this.host.config,
      this.host.timing,
      this.connectedAt,
      this.main?.sessionSince ?? null,
    );
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
    if (this.feeLaneFits(want, lane.current)) this.moveTo(lane, want);
  }

  /** Mine `lane`'s work for `target` from now on; its current job goes out at once. */
  protected moveTo(lane: L, target: string): void {
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
    if (lane.current !== null) this.sendJob(lane.current, true);
  }

  /** A lane this miner waited for has its first job. */
  onLaneReady(lane: L): void {
    lane.unwait(this);
    if (this.state === "authorized" && this.lane !== lane) this.evaluate();
  }

  /**
   * A fee lane's session ended: back to the main pool at once rather than mining work nobody takes
   * (the scheduler sends the miner again once the fee session is back).
   */
  onLaneDown(lane: L): void {
    if (lane === this.lane && this.main !== null && lane !== this.main && this.state === "authorized")
      this.moveTo(this.main, MAIN);
  }

  /**
   * Seed-hash families: a fee pool on another epoch than the main pool's would make the miner
   * rebuild its DAG for every visit, so it is not used (logged once per target and seed).
   */
  protected sameEpoch(want: string, mainSeed: string | undefined, feeSeed: string): boolean {
    if (mainSeed === undefined || feeSeed === mainSeed) return true;
    this.host.logOnce(
      `epoch:${want}:${feeSeed}`,
      "warn",
      `fee wallet ${this.host.fee.target(want)?.addr ?? want}: its pool mines another epoch (seed ${feeSeed.slice(0, 16)}…, main ${mainSeed.slice(0, 16)}…); not used`,
    );
    return false;
  }

  /** The prefix this miner mines under on a session whose own prefix is `poolPrefix`. */
  protected prefixOn(shared: boolean, poolPrefix: string): string {
    return shared ? poolPrefix + slotHex(this.slot) : poolPrefix;
  }
}
