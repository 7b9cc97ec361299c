/**
 * MovableMiner: what the miner sessions share in the families that move a miner between pool
 * sessions by its nonce prefix (Ethereum, Kaspa, Alephium, KawPow, Equihash):
 * - the connection's edges: lines bounded and handled in order (MinerIntake), a login timeout,
 *   strikes for bad requests, the close;
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
import type { StratumId } from "./message.ts";
import { type IntakeOwner, MinerIntake } from "./miner-intake.ts";
import type { SlotMiner } from "./pool-lane.ts";
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
  unwait(m: SlotMiner): void;
  close(): void;
  /** authorizes a worker on the lane's sessions (the families with Compatible-style fee) */
  addUser?(user: string, password: string): Promise<boolean>;
}

/** A lane whose first session's subscribe a miner waits for (its prefix is then known). */
export interface SubscribingLane<U> {
  readonly upstream: U | null;
  whenSubscribed(timeoutMs: number): Promise<boolean>;
}

/** A lane that logs workers in on its sessions. */
export interface WorkerLane {
  readonly shared: boolean;
  addUser(user: string, password: string): Promise<boolean>;
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
  implements MinerConnection, IntakeOwner, SlotMiner, ShareOwner<E>
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
  private loginTimer: ReturnType<typeof setTimeout> | null;
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
    this.loginTimer = setTimeout(() => this.close("login timeout"), host.timing.loginTimeoutMs);
  }

  // ---- what the family says ----

  /** One line from the miner; a promise while its answer waits for the pool. */
  abstract handleLine(line: string): Promise<void> | undefined;
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
  protected joinMain<T extends L>(id: StratumId, lane: T | null): T | null {
    if (lane === null) {
      this.refuse(id, this.refusal("other", "no pool configured"));
      this.close("no pool configured");
      return null;
    }
    this.main = lane;
    return lane;
  }

  /**
   * mining.subscribe on the miner's main lane (null: no pool configured): resolves with the lane's
   * session once it has subscribed, or null when the miner was refused and closed meanwhile.
   */
  protected async subscribeOn<U>(id: StratumId, lane: (L & SubscribingLane<U>) | null): Promise<U | null> {
    const main = this.joinMain(id, lane);
    if (main === null) return null;
    const ok = await main.whenSubscribed(this.host.timing.connectTimeoutMs * 2);
    const u = main.upstream;
    if (this.state === "closed") return null;
    if (!ok || u === null) {
      this.refuse(id, this.refusal("other", "pool unavailable"));
      this.close("pool unavailable at subscribe");
      return null;
    }
    return u;
  }

  /**
   * A login the pool answers on the miner's own session, once the lane's wait ended (`ok`): false
   * when the miner left meanwhile, or was refused (the pool's refusal of the login, or "pool
   * unavailable") and closed.
   */
  protected loginAnswered(id: StratumId, lane: { readonly refusal: string | null }, ok: boolean): boolean {
    if (this.state === "closed") return false;
    if (ok) return true;
    const why = lane.refusal ?? "pool unavailable";
    this.refuse(id, this.refusal(lane.refusal === null ? "other" : "unauthorized", why));
    this.close(`${why} at login`);
    return false;
  }

  /**
   * mining.authorize of a subscribed miner on its main lane: one worker per connection (further names
   * mine under the first), the ban check, then the miner's own session logs the worker in (a shared
   * session is logged in as the port's identity). Resolves with who the miner is once the login was
   * answered; null when it was refused, or answered already.
   */
  protected async authorizeWorker(
    id: StratumId,
    lane: WorkerLane,
    user: string,
    password: string,
  ): Promise<Identity | null> {
    if (this.state === "authorized") {
      // one worker per connection: further names mine under the first
      this.answer(id, true);
      return null;
    }
    const who = this.identify(id, user);
    if (who === null) return null;
    if (!lane.shared) {
      const ok = await lane.addUser(who.upstreamUser, password);
      if (this.state === "closed") return null;
      if (!ok) {
        this.refuse(id, this.refusal("unauthorized", "pool refused the worker"));
        return null;
      }
    }
    this.answer(id, true);
    return who;
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
    if (this.loginTimer) clearTimeout(this.loginTimer);
    this.loginTimer = null;
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
    for (const t of this.host.fee.targets) if (t.ratio > 0) void main.addUser?.(t.user, "x");
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
