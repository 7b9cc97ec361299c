/**
 * In-memory registry of devices: one record per (port, wallet, name, address), kept while online and
 * for a day after the last connection so that offline devices stay listed, but never more offline
 * ones per port than it has online (at least MIN_OFFLINE_KEPT). Share results arrive as small calls
 * from the engine; nothing here touches storage.
 */
import type { DeviceView, SeriesSample, SeriesSink, TargetSample } from "../domain/engine.ts";
import { connectionView, logConnection } from "./connection-log.ts";
import { DeviceTable } from "./device-table.ts";
import { HashrateWindow, releasedWindow, zeroRates } from "./hashrate-window.ts";
import { TargetMinutes } from "./target-minutes.ts";
import { MAIN, WorkSplit } from "./work-split.ts";

/** Offline devices are forgotten after this long (the 24 h window has then emptied). */
const FORGET_AFTER_MS = 24 * 3600_000;
/**
 * A port keeps at most this many offline devices, or as many as it has online when that is more;
 * the longest offline go first. Miners that come back under new names or addresses (DHCP, names
 * made from the address) each leave a record behind, and kept for a day those grew memory without
 * bound under churn (the soak: +9.6 MB an hour); design.md allows no growth beyond the live set.
 */
const MIN_OFFLINE_KEPT = 1_000;

const deviceId = (portId: number, seq: number): string => `${portId}-${seq.toString(36)}`;

export type ShareOutcome = "valid" | "invalid" | "stale";

/**
 * One device. Its fields are counted: a JSC object takes the next of its size classes (224, 256, 320,
 * 432 bytes for 26, 30, 38, 52 fields), and every connected miner has one. What can be derived is
 * (its key, whether it is online, when it was last seen offline).
 */
export class DeviceRecord {
  valid = 0;
  invalid = 0;
  stale = 0;
  upstreamUser = "";
  agent = "";
  localHashrate = 0;
  difficulty = 0;
  reconnects = 0;
  disconnects = 0;
  latencyMs = 0;
  loginAt = 0;
  lastSubmitAt = 0;
  lastJobAt = 0;
  feeRatio = 0;
  mining = MAIN;
  readonly work: HashrateWindow;
  /** made when the device first mines for a fee wallet */
  pumped: HashrateWindow | null = null;
  readonly split = new WorkSplit();
  /** connects and disconnects, signed timestamps (connection-log.ts) */
  readonly connectionEvents: number[] = [];
  // the open minute, flushed to the series sink once it closes
  minuteWork = 0;
  minuteFee = 0;
  minuteValid = 0;
  minuteInvalid = 0;
  minuteStale = 0;

  constructor(
    /** numbered per registry; the id the API shows is made from it when asked (a string per device less) */
    readonly seq: number,
    readonly portId: number,
    readonly wallet: string,
    readonly name: string,
    readonly ip: string,
    readonly algorithm: string,
    now: number,
  ) {
    this.work = new HashrateWindow(now);
  }

  get id(): string {
    return deviceId(this.portId, this.seq);
  }

  /** what the per-minute series knows the device by */
  get key(): string {
    return `${this.portId}|${this.wallet}|${this.name}|${this.ip}`;
  }

  /** connections open now: every connect after the first counts a reconnect, every close a disconnect */
  get connections(): number {
    return this.reconnects + 1 - this.disconnects;
  }

  /** its last connect or disconnect: for an offline device, when it went offline */
  get lastSeen(): number {
    return Math.abs(this.connectionEvents[this.connectionEvents.length - 1] ?? 0);
  }

  view(now: number): DeviceView {
    return {
      id: this.id,
      portId: this.portId,
      wallet: this.wallet,
      name: this.name,
      ip: this.ip,
      upstreamUser: this.upstreamUser,
      agent: this.agent,
      algorithm: this.algorithm,
      online: this.connections > 0,
      valid: this.valid,
      invalid: this.invalid,
      stale: this.stale,
      hashrate: this.work.rates(now),
      pumped: this.pumped?.rates(now) ?? zeroRates(),
      localHashrate: this.localHashrate,
      difficulty: this.difficulty,
      reconnects: this.reconnects,
      disconnects: this.disconnects,
      feeRatio: this.feeRatio,
      feeAchieved: this.split.total > 0 ? this.split.feeWork() / this.split.total : 0,
      latencyMs: Math.round(this.latencyMs * 100) / 100,
      loginAt: this.loginAt,
      lastSubmitAt: this.lastSubmitAt,
      lastJobAt: this.lastJobAt,
      concurrency: this.connections,
      mining: this.mining,
      connectionLog: connectionView(this.connectionEvents),
    };
  }
}

/** Totals of one port, updated with the same calls as its devices. */
export class PortTally {
  valid = 0;
  invalid = 0;
  stale = 0;
  latencyMs = 0;
  /** since the tally began, every pool answer (the metrics' counters) */
  acceptedWork = 0;
  feeAcceptedWork = 0;
  rejectedWork = 0;
  readonly split = new WorkSplit();
  /** the open minute per target, for the fee audit */
  readonly targets = new TargetMinutes();
  readonly work: HashrateWindow;
  readonly pumped: HashrateWindow;
  minuteWork = 0;
  minuteFee = 0;
  minuteValid = 0;
  minuteInvalid = 0;
  minuteStale = 0;

  constructor(now: number) {
    this.work = new HashrateWindow(now);
    this.pumped = new HashrateWindow(now);
  }
}

export class DeviceRegistry {
  private readonly table = new DeviceTable<DeviceRecord>();
  private readonly tallies = new Map<number, PortTally>();
  private seq = 0;

  tally(portId: number, now = Date.now()): PortTally {
    let t = this.tallies.get(portId);
    if (t === undefined) {
      t = new PortTally(now);
      this.tallies.set(portId, t);
    }
    return t;
  }

  /** A miner authorized: find or create its device and count the connection. */
  connect(
    portId: number,
    wallet: string,
    name: string,
    ip: string,
    algorithm: string,
    now: number,
  ): DeviceRecord {
    let d = this.table.find({ portId, wallet, name, ip });
    if (d === undefined) {
      d = new DeviceRecord(++this.seq, portId, wallet, name, ip, algorithm, now);
      this.table.add(d);
    } else d.reconnects++;
    logConnection(d.connectionEvents, now, true);
    d.loginAt = now;
    return d;
  }

  /** A connection of `d` closed (a second close of the same connection is not counted). */
  disconnect(d: DeviceRecord, now: number): void {
    if (d.connections <= 0) return;
    d.disconnects++;
    logConnection(d.connectionEvents, now, false);
  }

  /**
   * One answered share. `target` is "main" or a fee wallet key; `counted` is false while hashrate
   * protection excludes the device from fee accounting (docs/engine.md). The fee audit counts every
   * pool answer, counted or not: it is reconciled with the pools' own tallies.
   */
  result(
    d: DeviceRecord,
    outcome: ShareOutcome,
    target: string,
    work: number,
    latencyMs: number,
    counted: boolean,
    now: number,
  ): void {
    const t = this.tally(d.portId, now);
    d.lastSubmitAt = now;
    d.latencyMs = d.latencyMs === 0 ? latencyMs : d.latencyMs * 0.9 + latencyMs * 0.1;
    t.latencyMs = t.latencyMs === 0 ? latencyMs : t.latencyMs * 0.99 + latencyMs * 0.01;
    if (outcome === "valid") {
      d.valid++;
      t.valid++;
      d.minuteValid++;
      t.minuteValid++;
      d.work.add(work, now);
      t.work.add(work, now);
      d.minuteWork += work;
      t.minuteWork += work;
      if (target !== MAIN) {
        d.pumped ??= new HashrateWindow(now);
        d.pumped.add(work, now);
        t.pumped.add(work, now);
        d.minuteFee += work;
        t.minuteFee += work;
      }
      if (counted) {
        d.split.credit(target, work);
        t.split.credit(target, work);
      }
      t.targets.accepted(target, work);
      t.acceptedWork += work;
      if (target !== MAIN) t.feeAcceptedWork += work;
    } else if (outcome === "stale") {
      d.stale++;
      t.stale++;
      d.minuteStale++;
      t.minuteStale++;
    } else {
      d.invalid++;
      t.invalid++;
      d.minuteInvalid++;
      t.minuteInvalid++;
    }
    // A local verdict carries no work: that share never reached a pool, so no pool counts it rejected.
    if (outcome !== "valid" && work > 0) {
      t.targets.rejected(target, work);
      t.rejectedWork += work;
    }
  }

  /**
   * A scan, not a second map: one device is looked up when an operator opens it, while a map by id
   * would cost every connected miner an entry (design.md's memory budget per miner).
   */
  get(id: string): DeviceRecord | undefined {
    const dash = id.lastIndexOf("-");
    const portId = Number(id.slice(0, dash));
    const seq = Number.parseInt(id.slice(dash + 1), 36);
    if (dash < 1 || deviceId(portId, seq) !== id) return undefined;
    for (const d of this.table.values()) if (d.seq === seq && d.portId === portId) return d;
    return undefined;
  }

  devices(portId: number): DeviceRecord[] {
    const out: DeviceRecord[] = [];
    for (const d of this.table.values()) if (d.portId === portId) out.push(d);
    return out;
  }

  all(): IterableIterator<DeviceRecord> {
    return this.table.values();
  }

  forgetPort(portId: number): void {
    for (const d of this.devices(portId)) this.forget(d);
    const t = this.tallies.get(portId);
    t?.work.release();
    t?.pumped.release();
    this.tallies.delete(portId);
  }

  private forget(d: DeviceRecord): void {
    this.table.remove(d);
    d.work.release();
    d.pumped?.release();
    // a late pool answer must not give a forgotten device a new place in the arena
    d.pumped = releasedWindow;
  }

  private forgetOldestOffline(portId: number, count: number): void {
    const gone: DeviceRecord[] = [];
    for (const d of this.table.values()) if (d.portId === portId && d.connections === 0) gone.push(d);
    gone.sort((a, b) => a.lastSeen - b.lastSeen);
    for (const d of gone.slice(0, count)) this.forget(d);
  }

  /**
   * Once a minute: hand closed minutes (per device, per port, and per port and target for the fee
   * audit) to the series sink and forget long-offline devices.
   */
  tick(now: number, sink: SeriesSink | undefined): void {
    const minute = Math.floor(now / 60_000) - 1;
    const online = new Map<number, number>();
    const offline = new Map<number, number>();
    for (const d of this.table.values()) {
      if (sink && (d.minuteWork > 0 || d.minuteValid + d.minuteInvalid + d.minuteStale > 0))
        sink.add(sample(d.portId, d.key, minute, d));
      d.minuteWork = d.minuteFee = d.minuteValid = d.minuteInvalid = d.minuteStale = 0;
      const counts = d.connections > 0 ? online : offline;
      if (d.connections === 0 && now - d.lastSeen > FORGET_AFTER_MS) this.forget(d);
      else counts.set(d.portId, (counts.get(d.portId) ?? 0) + 1);
    }
    for (const [portId, n] of offline) {
      const excess = n - Math.max(MIN_OFFLINE_KEPT, online.get(portId) ?? 0);
      if (excess > 0) this.forgetOldestOffline(portId, excess);
    }
    const emit = sink ? (s: TargetSample) => sink.addTarget(s) : null;
    for (const [portId, t] of this.tallies) {
      if (sink) sink.add(sample(portId, "", minute, t));
      t.minuteWork = t.minuteFee = t.minuteValid = t.minuteInvalid = t.minuteStale = 0;
      t.targets.drain(portId, minute, emit);
    }
  }
}

interface MinuteCounters {
  minuteWork: number;
  minuteFee: number;
  minuteValid: number;
  minuteInvalid: number;
  minuteStale: number;
}

const sample = (portId: number, device: string, minute: number, c: MinuteCounters): SeriesSample => ({
  portId,
  device,
  minute,
  work: c.minuteWork,
  feeWork: c.minuteFee,
  valid: c.minuteValid,
  invalid: c.minuteInvalid,
  stale: c.minuteStale,
});
