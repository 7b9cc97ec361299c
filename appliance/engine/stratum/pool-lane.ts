/**
 * PoolLane: what every family's lane shares, one upstream session kept alive for a target (the main
 * pool or a fee wallet) with the miners mining on it now. It reconnects on its own with backoff
 * doubling to 30 s, moves to a new endpoint on rehome (the replaced session retires: it stays until
 * its pending shares are answered), lets miners wait for its first work, and on a session's end
 * decides between "the miner's own login was refused" (tell the miner, close) and "the pool went
 * away" (fee miners back to main, the port told, retry). A family's lane adds its jobs and logins.
 */
import { MAIN } from "../../stats/work-split.ts";
import { Roster } from "../roster.ts";
import type { Endpoint } from "../transport/endpoint.ts";
import { type LaneWaiter, LaneWaiters } from "./lane-waiters.ts";
import { SlotTable } from "./slot-table.ts";

/** The part of an upstream session a lane drives. */
export interface LaneSession {
  readonly endpoint: Endpoint;
  start(): void;
  retire(reason: string, graceMs: number): void;
}

export interface PoolLaneHost<L> {
  endpointFor(lane: L): Endpoint | null;
  laneDown(lane: L, endpoint: Endpoint, reason: string, healthy: boolean): void;
  readonly backoffMs: number;
}

/** A miner as the shared part of a lane sees it. */
export interface SlotMiner {
  readonly slot: number;
  /** its place in the miners of the lane it mines on (a Roster's index) */
  laneIndex: number;
}

const MAX_BACKOFF_MS = 30_000;
/** how long a replaced session may stay open to answer shares already sent */
export const RETIRE_GRACE_MS = 10_000;
let nextLaneId = 1;

export abstract class PoolLane<U extends LaneSession, J, M extends SlotMiner> {
  readonly id = nextLaneId++;
  upstream: U | null = null;
  current: J | null = null;
  /**
   * miners that receive this lane's jobs now: a Roster, not a Set, because in Efficient mode every
   * miner has a lane of its own and a Set that has held an entry keeps a 224-byte table
   */
  readonly miners = new Roster<"laneIndex", M>("laneIndex");
  private slotTable: SlotTable<M> | null = null;
  /** miners that asked to move here before the lane had work (made on first use) */
  private waitSet: Set<M> | null = null;
  /** when the current session started; hashrate protection looks at it */
  sessionSince = 0;
  lastActive = Date.now();
  /** why the pool refused this dedicated lane's login, once it has */
  refusal: string | null = null;
  protected closed = false;
  /** a session of this lane has been usable once (its login was accepted) */
  protected readyOnce = false;
  private backoff: number;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private waiters: LaneWaiters | null = null;

  constructor(
    private readonly base: PoolLaneHost<PoolLane<U, J, M>>,
    /** "main" or a fee wallet key */
    readonly target: string,
    readonly shared: boolean,
  ) {
    this.backoff = base.backoffMs;
  }

  /** A new session to this endpoint, not started yet, reporting to this lane. */
  protected abstract newSession(endpoint: Endpoint): U;
  /** A fee session ended: its miners go back to the main pool. */
  protected abstract minersDown(): void;

  open(): void {
    this.connect();
  }

  /** shared lanes: slot → miner (each miner's prefix is the session's prefix ‖ its slot); made on first use */
  get slots(): SlotTable<M> {
    this.slotTable ??= new SlotTable();
    return this.slotTable;
  }

  get waiting(): Set<M> {
    this.waitSet ??= new Set();
    return this.waitSet;
  }

  unwait(m: M): void {
    this.waitSet?.delete(m);
  }

  get waitingCount(): number {
    return this.waitSet?.size ?? 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Reconnect now (failover, fail-back, address change); miners stay and get the new session's work. */
  rehome(reason: string): void {
    if (this.closed) return;
    this.backoff = this.base.backoffMs;
    const old = this.upstream;
    if (old !== null) {
      this.upstream = null;
      old.retire(reason, RETIRE_GRACE_MS);
    }
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.connect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    // shares already sent still get their answer (and their place in the ledgers)
    this.upstream?.retire("lane closed", RETIRE_GRACE_MS);
    this.upstream = null;
    this.current = null;
    this.settle(false);
  }

  /**
   * Whether a login can be answered: the first session has subscribed (its prefix is known) or
   * logged in, as the family says by calling `settle(true)`.
   */
  get usable(): boolean {
    return this.readyOnce;
  }

  /** `w` is told at the lane's next `settle(true)`, or that it closed first. */
  awaitUsable(w: LaneWaiter): void {
    if (this.closed) {
      w.onLaneUsable(this, false);
      return;
    }
    this.waiters ??= new LaneWaiters();
    this.waiters.add(w);
  }

  forget(w: LaneWaiter): void {
    this.waiters?.forget(w);
  }

  protected settle(ok: boolean): void {
    const waiters = this.waiters;
    this.waiters = null;
    waiters?.tell(this, ok);
  }

  /** The pool delivered work: the next failure starts the backoff afresh. */
  protected resetBackoff(): void {
    this.backoff = this.base.backoffMs;
  }

  private connect(): void {
    if (this.closed) return;
    const ep = this.base.endpointFor(this);
    if (ep === null) {
      this.scheduleRetry();
      return;
    }
    const u = this.newSession(ep);
    this.upstream = u;
    u.start();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, wait);
  }

  /** The lane's session `u` ended; `refused`: the pool answered but refused its login. */
  onClosed(u: U, reason: string, healthy: boolean, refused: boolean): void {
    if (u !== this.upstream) return;
    this.upstream = null;
    this.current = null;
    if (this.closed) return;
    if (refused && !this.shared && !this.readyOnce) {
      // A miner's own login refused (its wallet, say): the miner is told; the pool is not down.
      this.refusal = reason;
      this.close();
      return;
    }
    // Miners on a fee session that dropped go back to the main pool at once instead of mining
    // work nobody will take; the scheduler sends them again once the session is back.
    if (this.target !== MAIN) this.minersDown();
    // A refusal of a shared session's login (the unified or fee identity) is the operator's to fix:
    // logged, retried with backoff, never a reason to leave the pool.
    this.base.laneDown(this, u.endpoint, reason, healthy || refused);
    this.scheduleRetry();
  }
}
