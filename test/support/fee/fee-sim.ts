/**
 * A discrete-event farm for the fee scheduler: miners that find shares as a Poisson process at a
 * fixed hashrate (so a pool with twice the difficulty gets half the shares), shares answered after a
 * network delay, a job switch that reaches the miner after a delay (shares found meanwhile still go
 * to the old pool), a fee pool that may reject a fraction, devices that disconnect and come back.
 * The scheduler is driven exactly as MinerSession drives it; the truth is this file's own tally of
 * accepted work per pool, which the scheduler never reads.
 */
import type { FeeSeat, SeatOwner } from "../../../appliance/engine/fee/fee-group.ts";
import { FeeScheduler } from "../../../appliance/engine/fee/scheduler.ts";
import { type DeviceRecord, DeviceRegistry } from "../../../appliance/stats/device-registry.ts";
import { MAIN } from "../../../appliance/stats/work-split.ts";
import { feeWallet } from "../stratum/port-fixture.ts";

export interface FarmOptions {
  miners: number;
  /** shares per second per miner at the main pool's difficulty */
  sharesPerSecond: number;
  /** fee pools' share difficulty relative to the main pool's */
  feeDifficulty: number;
  /** one ratio per fee wallet */
  ratios: number[];
  /** fraction of fee shares the fee pools reject */
  feeRejects?: number;
  /** share answer delay and job switch delay, ms */
  latencyMs?: number;
  switchDelayMs?: number;
  /** pump_t */
  holdSeconds?: number;
  /** per-device overrides: miner index → ratio */
  deviceRatios?: Map<number, number>;
  /** a miner disconnects with this probability per share and reconnects after `awayMs` */
  churn?: number;
  awayMs?: number;
  /** per-miner hashrate spread: rate × (1 + spread × u), u uniform in [−1, 1] */
  spread?: number;
  seed?: number;
  /** miners connect at random over this many ms (default 5,000; 1: all at once, as after a proxy restart) */
  rampMs?: number;
}

interface SimMiner extends SeatOwner {
  index: number;
  device: DeviceRecord;
  seat: FeeSeat | null;
  rate: number;
  /** the pool whose job the miner hashes now (changes after the switch delay) */
  hashing: string;
  /** bumps on every change of `hashing`, so scheduled shares of an old job are known */
  epoch: number;
  online: boolean;
  switches: number;
}

interface Event {
  at: number;
  run: () => void;
}

/** Min-heap of events by time. */
class Queue {
  private readonly heap: Event[] = [];
  push(e: Event): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((h[p] as Event).at <= e.at) break;
      h[i] = h[p] as Event;
      i = p;
    }
    h[i] = e;
  }
  pop(): Event | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && (h[r] as Event).at < (h[l] as Event).at ? r : l;
        if ((h[c] as Event).at >= last.at) break;
        h[i] = h[c] as Event;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

/** Deterministic PRNG (mulberry32) so a failing run can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FarmResult {
  shares: number;
  mainWork: number;
  feeWork: Map<string, number>;
  /** fee share of all accepted work, per the pools */
  achieved: number;
  /** seconds of simulated time until the first accepted fee share */
  firstFeeShareS: number;
  switchesPerDeviceHour: number;
  scheduler: FeeScheduler;
  devices: DeviceRecord[];
  keys: string[];
  /** accepted work per miner index: main and fee */
  perMiner: { main: number; fee: number }[];
}

export function runFarm(o: FarmOptions, untilShares: number): FarmResult {
  const random = rng(o.seed ?? 1);
  let now = 1_000_000;
  const scheduler = new FeeScheduler(() => now);
  scheduler.holdMs = (o.holdSeconds ?? 0) * 1000;
  scheduler.setWallets(o.ratios.map((r, i) => feeWallet(i + 1, `fee${i}`, `127.0.0.1:${i + 1}`, r)));
  const keys = scheduler.targets.map((t) => t.key);
  const registry = new DeviceRegistry();
  const queue = new Queue();
  const latency = o.latencyMs ?? 2;
  const switchDelay = o.switchDelayMs ?? 5;
  const unitOf = (target: string) => (target === MAIN ? 1 : o.feeDifficulty);
  let shares = 0;
  let mainWork = 0;
  const feeWork = new Map<string, number>();
  const perMiner = Array.from({ length: o.miners }, () => ({ main: 0, fee: 0 }));
  let firstFee = Number.POSITIVE_INFINITY;
  const start = now;

  const miners: SimMiner[] = [];
  const schedule = (m: SimMiner) => {
    const epoch = m.epoch;
    const wait = (-Math.log(1 - random()) * unitOf(m.hashing) * 1000) / m.rate;
    queue.push({ at: now + wait, run: () => epoch === m.epoch && m.online && share(m) });
  };
  const setHashing = (m: SimMiner, target: string) => {
    if (m.hashing === target) return;
    m.hashing = target;
    m.epoch++;
    schedule(m); // memoryless: the search on the new job starts now
  };
  const evaluate = (m: SimMiner) => {
    const seat = m.seat;
    if (seat === null || !m.online) return;
    const want = scheduler.decide(seat);
    if (want === seat.target) return;
    seat.group.moved(seat, want, now);
    m.switches++;
    queue.push({ at: now + switchDelay, run: () => m.online && setHashing(m, want) });
  };
  const share = (m: SimMiner) => {
    const seat = m.seat as FeeSeat;
    const target = m.hashing;
    const work = unitOf(target);
    shares++;
    seat.group.submitted(seat, target, work, now);
    m.device.split.addInflight(target, work);
    const ledger = seat.group.ledger;
    ledger.addInflight(target, work);
    schedule(m);
    queue.push({
      at: now + latency,
      run: () => {
        m.device.split.settleInflight(target, work);
        ledger.settleInflight(target, work);
        const rejected = target !== MAIN && random() < (o.feeRejects ?? 0);
        registry.result(m.device, rejected ? "invalid" : "valid", target, work, latency, true, now);
        if (!rejected) {
          ledger.credit(target, work);
          if (target === MAIN) {
            mainWork += work;
            (perMiner[m.index] as { main: number }).main += work;
          } else {
            feeWork.set(target, (feeWork.get(target) ?? 0) + work);
            (perMiner[m.index] as { fee: number }).fee += work;
            if (firstFee === Number.POSITIVE_INFINITY) firstFee = (now - start) / 1000;
          }
        }
        if (m.online && m.seat !== null && (o.churn ?? 0) > 0 && random() < (o.churn as number)) {
          disconnect(m);
          return;
        }
        evaluate(m);
      },
    });
  };
  const connect = (m: SimMiner) => {
    m.online = true;
    m.device = registry.connect(1, `w${m.index}`, "rig", "10.0.0.1", "sha256", now);
    if (o.deviceRatios?.has(m.index))
      scheduler.setDeviceRatio(m.device.wallet, m.device.name, o.deviceRatios.get(m.index) ?? 0);
    m.seat = scheduler.seat(m.device, m);
    m.seat.group.setActive(m.seat, true, now);
    m.hashing = MAIN;
    m.epoch++;
    schedule(m);
  };
  const disconnect = (m: SimMiner) => {
    m.online = false;
    if (m.seat !== null) scheduler.release(m.seat);
    m.seat = null;
    registry.disconnect(m.device, now);
    m.epoch++;
    queue.push({ at: now + (o.awayMs ?? 30_000), run: () => connect(m) });
  };

  for (let i = 0; i < o.miners; i++) {
    const spread = (o.spread ?? 0) * (2 * random() - 1);
    const m: SimMiner = {
      index: i,
      device: null as unknown as DeviceRecord,
      seat: null,
      rate: o.sharesPerSecond * (1 + spread),
      hashing: MAIN,
      epoch: 0,
      online: false,
      switches: 0,
      reconsider: () => evaluate(m),
    };
    miners.push(m);
    // miners come up over the first seconds, as a farm does after a power cut
    queue.push({ at: now + random() * (o.rampMs ?? 5000), run: () => connect(m) });
  }
  const tick = () => {
    scheduler.tick();
    queue.push({ at: now + 1000, run: tick });
  };
  queue.push({ at: now + 1000, run: tick });

  while (shares < untilShares) {
    const e = queue.pop();
    if (e === undefined) break;
    now = e.at;
    e.run();
  }
  // let the shares in flight land
  const end = now + latency * 2;
  for (let e = queue.pop(); e !== undefined && e.at <= end; e = queue.pop()) {
    now = e.at;
    e.run();
  }
  let fee = 0;
  for (const w of feeWork.values()) fee += w;
  const hours = (now - start) / 3_600_000;
  return {
    shares,
    mainWork,
    feeWork,
    achieved: fee / (fee + mainWork),
    firstFeeShareS: firstFee,
    switchesPerDeviceHour: miners.reduce((s, m) => s + m.switches, 0) / o.miners / hours,
    scheduler,
    devices: miners.map((m) => m.device),
    keys,
    perMiner,
  };
}
