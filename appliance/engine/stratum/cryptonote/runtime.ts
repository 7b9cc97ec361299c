/**
 * The CryptoNote family's side of a running port: its miners, the nonce spaces they mine in (one
 * per miner in Efficient mode, the port's shared main sessions in Pool mode, shared sessions per
 * fee wallet), and the port's job table.
 */
import { MAIN } from "../../../stats/work-split.ts";
import { joinUser } from "../../rewrite.ts";
import { Roster } from "../../roster.ts";
import { type Endpoint, endpointText } from "../../transport/endpoint.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { OptionsByAgent } from "../agent-options.ts";
import type { FamilyRuntime, MinerConnection } from "../family.ts";
import { PortView } from "../port-view.ts";
import { JobTable } from "./job.ts";
import type { Lane, LaneHost } from "./lane.ts";
import type { PoolJob } from "./messages.ts";
import { NonceSpace } from "./nonce-space.ts";
import { MinerSession, type SessionHost } from "./session.ts";
import type { UpstreamLogin, UpstreamOptions } from "./upstream.ts";

/** Efficient mode: the miner's own space, which is its home; null in Pool mode. */
const ownSpace = (m: MinerSession): NonceSpace | null => (m.home?.shared === false ? m.home : null);
const hasOwnSpace = (m: MinerSession): boolean => ownSpace(m) !== null;
const rehomeOwn = (m: MinerSession, reason: string): void => ownSpace(m)?.rehome(reason);
const refreshFee = (m: MinerSession): void => m.refreshFee();
const isReady = (m: MinerSession): boolean => m.state === "ready";

export class CryptoNoteRuntime extends PortView implements FamilyRuntime, SessionHost, LaneHost {
  readonly jobs = new JobTable();
  /**
   * a roster, not a Set: a member costs an array slot instead of a Set entry; and a miner's own
   * space (Efficient mode) is found through the miner, not a Map entry per miner
   */
  readonly miners = new Roster<"portIndex", MinerSession>("portIndex");
  private poolMain: NonceSpace | null = null;
  private readonly feeSpaces = new Map<string, NonceSpace>();
  /** fee targets already reported as mining another coin, with the seed that was reported */
  private readonly mismatched = new Map<string, string>();

  // ---- FamilyRuntime ----

  accept(socket: ByteSocket, ip: string): MinerConnection {
    const miner = new MinerSession(this, socket, ip);
    this.miners.add(miner);
    return miner;
  }

  start(): void {
    if (this.ctx.mode.sharedMain) this.openPoolMain();
  }

  stop(): void {
    // a miner's close releases it, and with it its own space
    for (const m of this.miners) m.close("port stopped");
    this.poolMain?.close();
    this.poolMain = null;
    for (const s of this.feeSpaces.values()) s.close();
    this.feeSpaces.clear();
  }

  rehomeMain(reason: string): void {
    this.miners.each(rehomeOwn, reason, null);
    this.poolMain?.rehome(reason);
  }

  refreshFee(): void {
    this.miners.each(refreshFee, null, null);
  }

  sweep(now: number): void {
    for (const [key, s] of this.feeSpaces) {
      s.sweep(now, this.ctx.timing.feeIdleMs);
      if (s.sessions === 0) this.feeSpaces.delete(key);
    }
  }

  get online(): number {
    return this.miners.count(isReady);
  }

  get connected(): number {
    return this.miners.size;
  }

  sessionCounts(): { main: number; fee: number } {
    let fee = 0;
    for (const s of this.feeSpaces.values()) fee += s.sessions;
    return { main: (this.poolMain?.sessions ?? 0) + this.miners.count(hasOwnSpace), fee };
  }

  // ---- SessionHost ----

  mainSpace(login: UpstreamLogin, agent: string): NonceSpace | null {
    if (this.ctx.mainEndpoint() === null) return null;
    if (this.ctx.mode.sharedMain) return this.openPoolMain();
    return new NonceSpace(this, MAIN, false, login, agent || null);
  }

  feeSpace(key: string): NonceSpace | null {
    const target = this.ctx.fee.target(key);
    if (target === undefined || target.endpoint === null) return null;
    let space = this.feeSpaces.get(key);
    if (space === undefined) {
      space = new NonceSpace(this, key, true, { user: target.user, pass: "x", rigid: null, algos: null });
      this.feeSpaces.set(key, space);
    }
    return space;
  }

  feeMismatch(key: string, fee: PoolJob, main: PoolJob): void {
    if (this.mismatched.get(key) === fee.seedHash) return;
    this.mismatched.set(key, fee.seedHash);
    const t = this.ctx.fee.target(key);
    this.log(
      "warn",
      `fee wallet ${t?.addr ?? key}: its pool${t?.endpoint ? ` ${endpointText(t.endpoint)}` : ""} mines another coin or epoch (seed ${fee.seedHash.slice(0, 16)}…, algo ${fee.algo ?? "?"}) than the main pool (seed ${main.seedHash.slice(0, 16)}…, algo ${main.algo ?? "?"}); it is not used`,
    );
  }

  releaseMiner(miner: MinerSession): void {
    if (this.miners.delete(miner)) this.ctx.connectionClosed(miner.ip);
    this.poolMain?.release(miner);
    for (const s of this.feeSpaces.values()) s.release(miner);
    ownSpace(miner)?.close();
  }

  // ---- LaneHost ----

  /** Sessions presenting the same agent share one options object (Efficient mode: one per miner). */
  upstreamOptions(agent: string | null): UpstreamOptions {
    return this.optionsByAgent.get(this.ctx.agentFor(agent));
  }

  private readonly optionsByAgent = new OptionsByAgent<UpstreamOptions>((agent) => ({
    agent,
    connectTimeoutMs: this.ctx.timing.connectTimeoutMs,
    jobTimeoutMs: this.ctx.timing.jobTimeoutMs,
    keepaliveMs: this.ctx.timing.keepaliveMs,
  }));

  endpointFor(lane: Lane): Endpoint | null {
    if (lane.target === MAIN) return this.ctx.mainEndpoint();
    return this.ctx.fee.target(lane.target)?.endpoint ?? null;
  }

  laneDown(lane: Lane, endpoint: Endpoint, reason: string, healthy: boolean): void {
    if (lane.shared || !healthy)
      this.log(
        "warn",
        `upstream ${endpointText(endpoint)} (${lane.target === MAIN ? "main" : "fee"}): ${reason}`,
      );
    if (lane.target === MAIN) this.ctx.mainDown(endpoint, reason, healthy);
  }

  // ---- internals ----

  private openPoolMain(): NonceSpace {
    if (this.poolMain === null) {
      const c = this.ctx.config;
      const user = joinUser({ wallet: c.proxy_addr.trim(), name: c.proxy_device.trim() });
      this.poolMain = new NonceSpace(this, MAIN, true, {
        user,
        pass: "x",
        rigid: c.proxy_device.trim() || null,
        algos: null,
      });
    }
    return this.poolMain;
  }
}
