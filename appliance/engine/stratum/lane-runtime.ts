/**
 * LaneRuntime: a family's side of a running port when its miners mine on lanes — the bookkeeping the
 * Bitcoin, Ethereum, Kaspa, Alephium, KawPow and Equihash runtimes share: the miners and the slot
 * bytes they take; each miner's own lane (Efficient); the port's shared main lanes (Pool mode, logged
 * in as the unified identity) and each fee wallet's shared lanes, opened on demand and closed by the
 * sweep once idle; stopping, moving the main lanes to a new pool, counting miners and sessions,
 * releasing a miner, which pool a lane connects to and what a lost session means. A family says how
 * its miners, its own lanes and its shared lanes are made, and what its sessions are told.
 */
import type { LogLevel } from "../../domain/engine.ts";
import { MAIN } from "../../stats/work-split.ts";
import { joinUser } from "../rewrite.ts";
import { Roster } from "../roster.ts";
import { type Endpoint, endpointText } from "../transport/endpoint.ts";
import type { ByteSocket } from "../transport/line-writer.ts";
import { OptionsByAgent } from "./agent-options.ts";
import type { FamilyRuntime, MinerConnection } from "./family.ts";
import type { SlotMiner } from "./pool-lane.ts";
import { PortView } from "./port-view.ts";
import { SlotBytes } from "./slot-bytes.ts";

/** A lane as the bookkeeping sees it. */
export interface BookLane {
  readonly target: string;
  readonly shared: boolean;
  open(): void;
  close(): void;
  rehome(reason: string): void;
}

/** The shared lanes of one target, 256 miners a session by slot byte (SlotLanes and kin). */
export interface SharedLanes<L, M> {
  leaseFor(miner: M): L;
  release(miner: M): void;
  sweep(now: number, idleMs: number): void;
  rehome(reason: string): void;
  close(): void;
  readonly sessions: number;
}

/** A miner as the bookkeeping sees it. */
export interface BookMiner<L> extends SlotMiner, MinerConnection {
  /** its place in the port's miners */
  portIndex: number;
  readonly ip: string;
  readonly state: string;
  /** the miner's own lane, or its place on a shared main lane */
  readonly main: L | null;
  refreshFee(): void;
}

/** A miner's own login on its own session (the families whose pools log in per session). */
export interface Login {
  readonly user: string;
  readonly password: string;
}

/** Distinct once-only log messages remembered per port (a bound, not an expected count). */
const MAX_LOGGED_ONCE = 1024;
const isAuthorized = (m: { state: string }): boolean => m.state === "authorized";
/**
 * Efficient mode: a miner's own lane is its main one, found through the miner rather than kept in
 * a set of the port's own lanes (an entry a miner).
 */
const ownLane = <L extends BookLane>(m: { readonly main: L | null }): L | null =>
  m.main !== null && !m.main.shared ? m.main : null;
const hasOwnLane = (m: { readonly main: BookLane | null }): boolean => ownLane(m) !== null;
const rehomeOwn = (m: { readonly main: BookLane | null }, reason: string): void => ownLane(m)?.rehome(reason);
const refreshFee = (m: { refreshFee(): void }): void => m.refreshFee();

/** What every upstream session of a port is told, whatever its family. */
export interface SessionOptions {
  readonly agent: string;
  readonly connectTimeoutMs: number;
  readonly jobTimeoutMs: number;
}

export abstract class LaneRuntime<M extends BookMiner<L>, L extends BookLane, S extends SharedLanes<L, M>>
  extends PortView
  implements FamilyRuntime
{
  readonly miners = new Roster<"portIndex", M>("portIndex");
  /** Pool mode's shared main lanes, by variant ("" but in the Ethereum family, which has one a dialect) */
  private readonly poolMain = new Map<string, S>();
  /** each fee wallet's shared lanes, by fee key (and variant) */
  private readonly feeSources = new Map<string, S>();
  protected readonly slots = new SlotBytes();
  private readonly loggedOnce = new Set<string>();

  /** A miner the port admitted, on its slot byte; `tunnelled`: a stream of an RMS tunnel. */
  protected abstract newMiner(socket: ByteSocket, ip: string, slot: number, tunnelled: boolean): M;
  /** The shared lanes of `target` (main or a fee key) whose sessions log in as `user`, in `variant`. */
  protected abstract newShared(target: string, user: string, variant: string): S;
  /** Efficient mode: a miner's own main lane, not opened yet (`login`: the miner's, where it has one). */
  protected abstract newOwnLane(miner: M, login: Login | null, variant: string): L;

  /** The variant of lanes a miner mines on ("" where a family has one), null while it is not known. */
  protected variantOf(_miner: M): string | null {
    return "";
  }

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string, tunnelled = false): MinerConnection {
    const miner = this.newMiner(socket, ip, this.slots.take(), tunnelled);
    this.miners.add(miner);
    return miner;
  }

  /** Pool mode opens its shared main lanes when the first miner needs them. */
  start(): void {}

  stop(): void {
    // a miner's close closes its own lane
    for (const m of this.miners) m.close("port stopped");
    for (const s of this.poolMain.values()) s.close();
    this.poolMain.clear();
    for (const s of this.feeSources.values()) s.close();
    this.feeSources.clear();
  }

  rehomeMain(reason: string): void {
    this.miners.each(rehomeOwn, reason, null);
    for (const s of this.poolMain.values()) s.rehome(reason);
  }

  refreshFee(): void {
    this.miners.each(refreshFee, null, null);
  }

  sweep(now: number): void {
    for (const [key, s] of this.feeSources) {
      s.sweep(now, this.ctx.timing.feeIdleMs);
      if (s.sessions === 0) this.feeSources.delete(key);
    }
  }

  get online(): number {
    return this.miners.count(isAuthorized);
  }

  get connected(): number {
    return this.miners.size;
  }

  sessionCounts(): { main: number; fee: number } {
    let main = this.miners.count(hasOwnLane);
    for (const s of this.poolMain.values()) main += s.sessions;
    let fee = 0;
    for (const s of this.feeSources.values()) fee += s.sessions;
    return { main, fee };
  }

  // ---- what sessions ask ----

  /**
   * The miner's main lane: its own, opened (Efficient), or its place on the shared main lanes of its
   * variant (Pool mode, made at the first miner); null when no pool is configured.
   */
  mainLane(miner: M, login: Login | null = null): L | null {
    const variant = this.variantOf(miner);
    if (variant === null || this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.poolMainLanes(variant).leaseFor(miner);
    const lane = this.newOwnLane(miner, login, variant);
    lane.open();
    return lane;
  }

  /** Pool mode's shared main lanes in `variant`, logged in as the port's unified identity. */
  protected poolMainLanes(variant = ""): S {
    let source = this.poolMain.get(variant);
    if (source === undefined) {
      const c = this.ctx.config;
      const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
      source = this.newShared(MAIN, user, variant);
      this.poolMain.set(variant, source);
    }
    return source;
  }

  /** The lane of a fee target holding the miner's slot (opened on demand); null when it has no pool. */
  feeLane(miner: M, key: string): L | null {
    const target = this.ctx.fee.target(key);
    const variant = this.variantOf(miner);
    if (target === undefined || target.endpoint === null || variant === null) return null;
    const sourceKey = variant === "" ? key : `${key}\n${variant}`;
    let source = this.feeSources.get(sourceKey);
    if (source === undefined) {
      source = this.newShared(key, target.user, variant);
      this.feeSources.set(sourceKey, source);
    }
    return source.leaseFor(miner);
  }

  releaseMiner(miner: M): void {
    if (this.miners.delete(miner)) {
      this.slots.give(miner.slot);
      this.ctx.connectionClosed(miner.ip);
    }
    for (const s of this.poolMain.values()) s.release(miner);
    for (const s of this.feeSources.values()) s.release(miner);
  }

  /** Logs a message once per key (the port's lifetime). */
  logOnce(key: string, level: LogLevel, message: string): void {
    if (this.loggedOnce.has(key) || this.loggedOnce.size >= MAX_LOGGED_ONCE) return;
    this.loggedOnce.add(key);
    this.ctx.log(level, message);
  }

  // ---- what lanes ask ----

  /**
   * What every upstream session of the port is told: the agent it presents and its timeouts, one
   * object per agent presented.
   */
  protected sessionOptions(agent: string | null): SessionOptions {
    return this.optionsByAgent.get(this.ctx.agentFor(agent));
  }

  private readonly optionsByAgent = new OptionsByAgent<SessionOptions>((agent) => ({
    agent,
    connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
    jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
  }));

  endpointFor(lane: L): Endpoint | null {
    if (lane.target === MAIN) return this.ctx.mainEndpoint();
    return this.ctx.fee.target(lane.target)?.endpoint ?? null;
  }

  /**
   * A lane's session ended; `healthy`: it had delivered work. A shared session's end is logged (a
   * miner's own is, when it failed); the main pool's drives the port's failover.
   */
  laneDown(lane: L, endpoint: Endpoint, reason: string, healthy: boolean): void {
    if (lane.shared || !healthy)
      this.log("warn", `upstream ${endpointText(endpoint)} (${this.laneName(lane)}): ${reason}`);
    if (lane.target === MAIN) this.ctx.mainDown(endpoint, reason, healthy);
  }

  /** How a lane is named in the log. */
  protected laneName(lane: L): string {
    return lane.target === MAIN ? "main" : "fee";
  }
}
