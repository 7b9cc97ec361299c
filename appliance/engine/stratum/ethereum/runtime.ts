/**
 * The Ethereum family's side of a running port: its miners (both dialects on one listener), the
 * lanes they mine on (dedicated per miner in Efficient mode, shared in Pool mode, shared per fee
 * wallet) and the slot bytes that let one ES1 session carry 256 miners.
 *
 * A pool session speaks the dialect of the miners it carries; neither dialect can be carried over
 * the other: an ETHPROXY miner draws its whole 64-bit nonce at random, so its shares would not start
 * with an ES1 session's prefix, and an ES1 miner submits no mix digest, which an ETHPROXY pool checks
 * (computing it would mean hashing every share on the proxy). So a port opens ETHPROXY sessions for
 * its ETHPROXY miners and EthereumStratum/1.0.0 sessions for its NiceHash miners, to the same pools.
 */
import type { LogLevel } from "../../../domain/engine.ts";
import { MAIN } from "../../../stats/work-split.ts";
import { joinUser } from "../../rewrite.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import type { FamilyRuntime, MinerConnection } from "../family.ts";
import { PortView } from "../port-view.ts";
import { SlotBytes } from "../slot-bytes.ts";
import { Lane, type LaneHost } from "./lane.ts";
import type { Dialect } from "./methods.ts";
import { EthMinerSession, type MinerHost } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** Distinct once-only log messages remembered per port (a bound, not an expected count). */
const MAX_LOGGED_ONCE = 1024;

export class EthereumRuntime extends PortView implements FamilyRuntime, MinerHost, LaneHost {
  readonly miners = new Set<EthMinerSession>();
  private readonly poolMain = new Map<Dialect, SharedSource>();
  private readonly feeSources = new Map<string, SharedSource>();
  private readonly dedicated = new Set<Lane>();
  private readonly slots = new SlotBytes();
  private readonly loggedOnce = new Set<string>();

  logOnce(key: string, level: LogLevel, message: string): void {
    if (this.loggedOnce.has(key) || this.loggedOnce.size >= MAX_LOGGED_ONCE) return;
    this.loggedOnce.add(key);
    this.ctx.log(level, message);
  }

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string): MinerConnection {
    const miner = new EthMinerSession(this, socket, ip, this.slots.take());
    this.miners.add(miner);
    return miner;
  }

  /** Pool mode opens a shared main session per dialect when its first miner arrives. */
  start(): void {}

  stop(): void {
    for (const m of [...this.miners]) m.close("port stopped");
    for (const s of this.poolMain.values()) s.close();
    this.poolMain.clear();
    for (const s of this.feeSources.values()) s.close();
    this.feeSources.clear();
    for (const l of this.dedicated) l.close();
    this.dedicated.clear();
  }

  rehomeMain(reason: string): void {
    for (const l of this.dedicated) l.rehome(reason);
    for (const s of this.poolMain.values()) s.rehome(reason);
  }

  refreshFee(): void {
    for (const m of this.miners) m.refreshFee();
  }

  sweep(now: number): void {
    for (const [key, s] of this.feeSources) {
      s.sweep(now, this.ctx.timing.feeIdleMs);
      if (s.sessions === 0) this.feeSources.delete(key);
    }
  }

  get online(): number {
    let n = 0;
    for (const m of this.miners) if (m.state === "authorized") n++;
    return n;
  }

  get connected(): number {
    return this.miners.size;
  }

  sessionCounts(): { main: number; fee: number } {
    let main = this.dedicated.size;
    for (const s of this.poolMain.values()) main += s.sessions;
    let fee = 0;
    for (const s of this.feeSources.values()) fee += s.sessions;
    return { main, fee };
  }

  // ---- MinerHost ----

  mainLane(miner: EthMinerSession, login: { user: string; password: string } | null): Lane | null {
    const dialect = miner.dialect;
    if (dialect === null || this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) {
      let source = this.poolMain.get(dialect);
      if (source === undefined) {
        const c = this.ctx.config;
        const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
        source = new SharedSource(this, MAIN, dialect, user, "x");
        this.poolMain.set(dialect, source);
      }
      return source.leaseFor(miner);
    }
    const lane = new Lane(
      this,
      MAIN,
      dialect,
      false,
      login?.user ?? null,
      login?.password ?? "x",
      miner.agent || null,
    );
    this.dedicated.add(lane);
    lane.open();
    return lane;
  }

  feeLane(miner: EthMinerSession, key: string): Lane | null {
    const target = this.ctx.fee.target(key);
    const dialect = miner.dialect;
    if (target === undefined || target.endpoint === null || dialect === null) return null;
    const sourceKey = `${key}\n${dialect}`;
    let source = this.feeSources.get(sourceKey);
    if (source === undefined) {
      source = new SharedSource(this, key, dialect, target.user, "x");
      this.feeSources.set(sourceKey, source);
    }
    return source.leaseFor(miner);
  }

  releaseMiner(miner: EthMinerSession): void {
    if (this.miners.delete(miner)) {
      this.slots.give(miner.slot);
      this.ctx.connectionClosed(miner.ip);
    }
    for (const s of this.poolMain.values()) s.release(miner);
    for (const s of this.feeSources.values()) s.release(miner);
    if (miner.main && !miner.main.shared) this.dedicated.delete(miner.main);
  }

  // ---- LaneHost ----

  upstreamOptions(lane: Lane): UpstreamOptions {
    return {
      dialect: lane.dialect,
      agent: this.ctx.agentFor(lane.agent),
      login: lane.dialect === "ethproxy" ? { user: lane.user ?? "", password: lane.password } : null,
      connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
      jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    };
  }

  endpointFor(lane: Lane): Endpoint | null {
    if (lane.target === MAIN) return this.ctx.mainEndpoint();
    return this.ctx.fee.target(lane.target)?.endpoint ?? null;
  }

  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void {
    if (lane.shared || !healthy)
      this.log(
        "warn",
        `upstream ${endpointText(endpoint)} (${lane.target === MAIN ? "main" : "fee"}, ${lane.dialect}): ${reason}`,
      );
    if (lane.target === MAIN) this.ctx.mainDown(endpoint, reason, healthy);
  }
}
