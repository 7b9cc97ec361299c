/**
 * FeeGroup: the miners balanced together against one set of fee ratios — the port's devices without
 * an override, or one overridden device or wallet — and the controller that decides who mines for
 * a fee wallet (design.md, "Fee accounting").
 *
 * Why not per device: a device owes its first fee share only after 1/ratio of its own shares (50 at
 * 2 %), which at real share rates (one every 3–20 s) is many minutes, restarted by every reconnect.
 * Balanced per group, the port owes a fee share after 1/ratio of the port's shares and some device
 * pays it at once.
 *
 * The controller keeps, per fee target, `owed` = actual + expected deficit:
 * - actual: ratio × accepted work − accepted fee work, shares in flight counted as delivered. It is
 *   the truth (the pools' tally), but for slow miners it moves only when a share lands, seconds
 *   after a miner was moved: alone it would keep moving miners until the first fee shares arrive.
 * - expected: what the moves imply, integrated from the miners' hashrates ((ratio × the group's
 *   active miners − the miners on the target) × the average miner's hashrate), so a move shows at
 *   once. It forgets with a time constant so that an error in the hashrate estimates cannot pile
 *   up; the actual term carries the long run.
 *   Every active miner counts in the need from its login, not from its first share: when a farm
 *   starts together (a proxy restart), most of its miners have sent no share in the first tenth of
 *   a second, their shares still count in the actual term, and a need that waited for them left
 *   the fee 0.03 pp behind over the first 100,000 shares of 5,000 miners at ten shares a second.
 *   A miner on a fee target counts as the average miner, not at its own estimate, because the
 *   miners found on a fee target are not a fair sample of the estimates: a miner decides after each
 *   answered share, so one that has been unlucky lately (long gaps, a low estimate) decides less
 *   often and stays longer; and while estimates still move (a farm's first minutes, miners that log
 *   in before they hash) those on a fee pool of twice the difficulty refresh theirs half as often.
 *   Counted at their own estimates, the miners on the fee pool read 15 % below the average in a farm
 *   of 5,000 that began hashing together, the expected term promised less than they delivered, and
 *   their first 100,000 shares came out +0.02 to +0.065 pp over (bench/engine/fee-sockets.ts). Every
 *   miner spends its ratio of the time on fee targets (fairTurn), so count × average is fair over
 *   the rotation, and the actual term corrects what a fast or slow miner does within one visit.
 * A miner on the main pool moves to the target whose projected owed work (owed plus the next
 * HORIZON of drift) is at least half a band; a miner on a target returns when the projection without
 * it falls to minus half a band. The band is BAND_SHARES shares of the fee pool, so the achieved split
 * stays within about one band of work of the configured one at any time, however many miners.
 */
import type { DeviceRecord } from "../../stats/device-registry.ts";
import { MAIN, WorkSplit } from "../../stats/work-split.ts";
import { Roster } from "../roster.ts";
import { RateMeter } from "./rate-meter.ts";
import type { TargetRatio } from "./targets.ts";

/** Width of the hysteresis band, in shares of the fee target's pool. */
export const BAND_SHARES = 4;
/**
 * No miner switches more often than this, whatever pump_t says: every switch re-issues a job, and a
 * miner sending hundreds of shares a second would otherwise switch every few milliseconds and push
 * jobs it still has shares in flight for out of the job table.
 */
const MIN_HOLD_MS = 100;
/**
 * Seconds of drift the decision looks ahead: the time a move takes to show in the work, i.e. one
 * fee share of an average miner (0.2 s for a miner sending ten main shares a second to a pool of
 * twice the difficulty), within these bounds. The upper bound keeps slow miners' decisions from
 * looking minutes ahead on hashrate estimates alone; pump_t, when longer, replaces it.
 */
const MIN_HORIZON_S = 0.1;
const MAX_HORIZON_S = 1;
/**
 * The expected term bridges the time until moved miners' shares show in the actual term: it
 * remembers about this many fee shares of an average miner (0.4 s for the miner above, minutes for
 * one sending a share a minute), within the bounds below. Together with the horizon this is the
 * time over which a deficit is paid back: with a fixed 1 s horizon and a 2 s floor here, a farm of
 * 5,000 miners at ten shares a second that comes up over a few seconds paid back its first
 * seconds' deficit over about 3 s, and its first 100,000 shares (2 s) came out 0.05–0.15 pp short
 * in the simulated farms (test/support/fee/fee-sim.ts) and over sockets.
 */
const EXPECTED_MEMORY_SHARES = 2;
const MIN_MEMORY_S = 0.1;
const MAX_MEMORY_S = 300;

/** The miner behind a seat, asked to decide again (the periodic check for miners on fee). */
export interface SeatOwner {
  reconsider(): void;
}

/**
 * One miner's place in a group: its hashrate, where it mines, when it last switched. It is its own
 * RateMeter (the miner's hashrate from its shares) rather than holding one: every connected miner
 * has a seat, and a second object each would cost the memory budget per miner (design.md).
 */
export class FeeSeat extends RateMeter {
  group: FeeGroup;
  /** "main" or the key of the fee target the miner mines for now */
  target = MAIN;
  /** hashrate counted in the group's sums (work/s); 0 while not active */
  posted = 0;
  /** switched by the scheduler (Efficient/Pool); false for Compatible and while protected */
  active = false;
  switchedAt = Number.NEGATIVE_INFINITY;
  /** time spent on fee targets, closed visits only */
  feeMs = 0;
  /** work of this miner's last share, the band's unit until a fee pool's is known */
  unit = 0;
  /** its place in the group's seats */
  seatIndex = -1;

  constructor(
    group: FeeGroup,
    readonly device: DeviceRecord,
    readonly owner: SeatOwner,
    now: number,
  ) {
    super(now);
    this.group = group;
  }
}

export class FeeGroup {
  /** accepted (and in-flight) work of this group's miners, by target */
  readonly ledger = new WorkSplit();
  readonly seats = new Roster<"seatIndex", FeeSeat>("seatIndex");
  /** the seats on a fee target now: few, so a Set */
  readonly visitors = new Set<FeeSeat>();
  private readonly expected = new Map<string, number>();
  /** rated active seats mining for each target */
  private readonly countOn = new Map<string, number>();
  /** the fee pool's share work per target, learnt from submitted shares */
  private readonly units = new Map<string, number>();
  private sumRate = 0;
  /** active seats with a hashrate estimate */
  private rated = 0;
  /** active seats, rated or not */
  private active = 0;
  private integratedAt: number;

  constructor(
    public ratios: readonly TargetRatio[],
    now: number,
  ) {
    this.integratedAt = now;
  }

  /** Advances the expected term to `now` with the hashrates posted until now. */
  integrate(now: number): void {
    const dt = (now - this.integratedAt) / 1000;
    if (dt <= 0) return;
    this.integratedAt = now;
    const perMiner = this.rated > 0 ? this.sumRate / this.rated : 0;
    for (const r of this.ratios) {
      if (r.ratio <= 0) continue;
      const unit = this.units.get(r.key) ?? 0;
      const memory =
        perMiner > 0 && unit > 0
          ? Math.min(MAX_MEMORY_S, Math.max(MIN_MEMORY_S, (EXPECTED_MEMORY_SHARES * unit) / perMiner))
          : MIN_MEMORY_S;
      const keep = Math.exp(-dt / memory);
      const drift = (r.ratio * this.active - (this.countOn.get(r.key) ?? 0)) * perMiner;
      // exact solution of e' = drift − e / memory over dt
      const e = this.expected.get(r.key) ?? 0;
      this.expected.set(r.key, e * keep + drift * memory * (1 - keep));
    }
  }

  join(seat: FeeSeat, now: number): void {
    this.integrate(now);
    seat.group = this;
    this.seats.add(seat);
    if (seat.target !== MAIN) this.visitors.add(seat);
    if (seat.active) {
      this.active++;
      this.post(seat, seat.rate);
    }
  }

  leave(seat: FeeSeat, now: number): void {
    this.integrate(now);
    if (seat.active) {
      this.active--;
      this.post(seat, 0);
    }
    this.seats.delete(seat);
    this.visitors.delete(seat);
  }

  setActive(seat: FeeSeat, active: boolean, now: number): void {
    if (seat.active === active) return;
    this.integrate(now);
    if (!active) this.post(seat, 0);
    seat.active = active;
    this.active += active ? 1 : -1;
    if (active) this.post(seat, seat.rate);
  }

  /**
   * A share submitted by the seat's miner (for any target): its hashrate and the target's unit.
   * Until a miner's second share gives it a hashrate of its own it counts as the group's average
   * miner, so that a farm coming up pays its fee from the first seconds.
   */
  submitted(seat: FeeSeat, target: string, work: number, now: number): void {
    const own = seat.addShare(work, now);
    const rate =
      own > 0 ? own : this.rated > 0 && seat.posted === 0 ? this.sumRate / this.rated : seat.posted;
    seat.unit = work;
    if (target !== MAIN) this.units.set(target, work);
    if (seat.active && rate !== seat.posted) {
      this.integrate(now);
      this.post(seat, rate);
    }
  }

  /** The miner now mines for `target`. */
  moved(seat: FeeSeat, target: string, now: number): void {
    if (seat.target === target) return;
    this.integrate(now);
    if (seat.posted > 0) {
      if (seat.target !== MAIN) this.addOn(seat.target, -1);
      if (target !== MAIN) this.addOn(target, 1);
    }
    if (seat.target !== MAIN) seat.feeMs += now - seat.switchedAt;
    seat.target = target;
    seat.switchedAt = now;
    if (target === MAIN) this.visitors.delete(seat);
    else this.visitors.add(seat);
  }

  private post(seat: FeeSeat, rate: number): void {
    const delta = rate - seat.posted;
    if (delta === 0) return;
    const on = seat.posted === 0 ? 1 : rate === 0 ? -1 : 0;
    this.rated += on;
    if (on !== 0 && seat.target !== MAIN) this.addOn(seat.target, on);
    seat.posted = rate;
    this.sumRate += delta;
  }

  private addOn(key: string, delta: number): void {
    this.countOn.set(key, (this.countOn.get(key) ?? 0) + delta);
  }

  /** Recomputes the hashrate sums from the seats, so rounding cannot drift over days. */
  resum(now: number): void {
    this.integrate(now);
    this.sumRate = 0;
    this.rated = 0;
    this.active = 0;
    this.countOn.clear();
    for (const s of this.seats) {
      if (s.active) this.active++;
      if (!s.active || s.posted <= 0) continue;
      this.sumRate += s.posted;
      this.rated++;
      if (s.target !== MAIN) this.addOn(s.target, 1);
    }
  }

  /** Actual plus expected work the group owes the target. */
  owed(r: TargetRatio): number {
    const l = this.ledger;
    const actual = r.ratio * (l.total + l.pendingTotal()) - l.work(r.key) - l.pending(r.key);
    return actual + (this.expected.get(r.key) ?? 0);
  }

  /**
   * owed, plus the drift over the horizon (or pump_t, when longer) with everyone but `seat` where
   * they are, every miner counted as the average one (see the expected term above).
   */
  private projected(r: TargetRatio, seat: FeeSeat, holdS: number): number {
    const average = this.rated > 0 ? this.sumRate / this.rated : 0;
    const unit = this.units.get(r.key) ?? seat.unit;
    const showsIn = average > 0 && unit > 0 ? unit / average : MAX_HORIZON_S;
    // a miner that moves stays at least holdMs: plan the moves over that time
    const horizonS = Math.max(holdS, Math.min(MAX_HORIZON_S, Math.max(MIN_HORIZON_S, showsIn)));
    const own = seat.target === r.key && seat.posted > 0 ? 1 : 0;
    const others = ((this.countOn.get(r.key) ?? 0) - own) * average;
    // What the others leave unpaid beyond half a miner's worth. Half: a miner on main sees the drift
    // if it stays, one on the target the drift without it, and half a miner between the two puts
    // the join and return thresholds symmetrically around the owed work; with a whole miner the
    // owed work sat half a fee share high per target (ten wallets: 0.015 pp short over 100,000
    // shares). When half a miner is more than the target needs (few fast miners) the miner is
    // time-sliced on `owed` alone: counting the need there would move the band and over-divert by
    // the need × horizon.
    const unpaid = Math.max(0, (r.ratio * this.active - 0.5) * average) - others;
    return this.owed(r) + unpaid * horizonS;
  }

  private halfBand(key: string, seat: FeeSeat): number {
    return ((this.units.get(key) ?? seat.unit) * BAND_SHARES) / 2;
  }

  /** A loop, not `find` with a closure: `decide` runs after every answered share. */
  private ratioOf(key: string): TargetRatio | undefined {
    const ratios = this.ratios;
    for (let i = 0; i < ratios.length; i++) if ((ratios[i] as TargetRatio).key === key) return ratios[i];
    return undefined;
  }

  /**
   * Where a switchable miner should mine now. `holdMs`: the minimum time between a device's
   * switches (pump_t); convergence holds because every visit, however long, is in the ledgers.
   */
  decide(seat: FeeSeat, now: number, holdMs: number): string {
    this.integrate(now);
    const current = seat.target === MAIN ? null : this.ratioOf(seat.target);
    if (seat.target !== MAIN && (current === undefined || current === null || current.ratio <= 0))
      return MAIN;
    if (now - seat.switchedAt < Math.max(holdMs, MIN_HOLD_MS)) return seat.target;
    const holdS = holdMs / 1000;
    if (current)
      return this.projected(current, seat, holdS) <= -this.halfBand(current.key, seat) ? MAIN : current.key;
    if (seat.posted <= 0) return MAIN;
    let best = MAIN;
    let bestScore = 1;
    for (const r of this.ratios) {
      if (r.ratio <= 0) continue;
      const half = this.halfBand(r.key, seat);
      if (half <= 0) continue;
      const score = this.projected(r, seat, holdS) / half;
      if (score >= bestScore && this.fairTurn(seat, now)) {
        best = r.key;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * Among the group's miners, one that has spent more than its share of time on fee targets waits
   * for the others: the port converges either way, and this keeps each device near its ratio. Time,
   * not work: a miner that was lucky has more work, and preferring it would prefer miners whose
   * hashrate is overestimated, so that the expected term would promise more than they deliver.
   */
  private fairTurn(seat: FeeSeat, now: number): boolean {
    // alone in its group (a device with its own ratio), a miner has nobody to wait for: held to
    // its time it would pay the luck of its visits (±10 shares in 100), not its owed work
    if (this.seats.size === 1) return true;
    let ratio = 0;
    for (const r of this.ratios) ratio += r.ratio;
    const slackMs = seat.posted > 0 ? (seat.unit * BAND_SHARES * 1000) / seat.posted : 0;
    return ratio * (now - seat.since) - seat.feeMs > -slackMs;
  }

  /** Compatible mode: the target of one share on the miner's own session. */
  pickForShare(work: number): string {
    const l = this.ledger;
    const total = l.total + l.pendingTotal() + work;
    let best = MAIN;
    let bestOwed = work / 2;
    for (const r of this.ratios) {
      if (r.ratio <= 0) continue;
      const owed = r.ratio * total - l.work(r.key) - l.pending(r.key);
      if (owed >= bestOwed) {
        best = r.key;
        bestOwed = owed;
      }
    }
    return best;
  }
}
