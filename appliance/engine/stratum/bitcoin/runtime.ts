/**
 * The Bitcoin family's side of a running port (a LaneRuntime): its miners, the lanes they mine on
 * (dedicated per miner in Efficient and Compatible, shared in Pool mode, shared per fee wallet), the
 * port's job table and the extranonce slots that let one pool session carry 256 miners; a miner that
 * reconnects soon may resume its session and keep its slot.
 */
import { MAIN } from "../../../stats/work-split.ts";
import type { ByteSocket } from "../../transport/line-writer.ts";
import { OptionsByAgent } from "../agent-options.ts";
import { LaneRuntime } from "../lane-runtime.ts";
import { MINER_EXTRANONCE2_BYTES, STREAM_MIN_EXTRANONCE2 } from "./framing.ts";
import { JobTable } from "./job.ts";
import { Lane, type LaneHost } from "./lane.ts";
import { BIP320_MASK } from "./methods.ts";
import { type MinerHost, MinerSession } from "./session.ts";
import { SharedSource } from "./shared-source.ts";
import type { UpstreamOptions } from "./upstream.ts";

/** A miner reconnecting within this time may resume its session (keeps its extranonce1). */
const RESUME_WINDOW_MS = 10 * 60_000;
const MAX_RECENT_SESSIONS = 4096;

export class BitcoinRuntime
  extends LaneRuntime<MinerSession, Lane, SharedSource>
  implements MinerHost, LaneHost
{
  readonly jobs = new JobTable();
  /** session id → slot of recently closed re-framed sessions, for mining.subscribe resume */
  private readonly recentSessions = new Map<string, { slot: number; at: number }>();
  private knownMask = BIP320_MASK;

  protected newMiner(socket: ByteSocket, ip: string, slot: number, tunnelled: boolean): MinerSession {
    return new MinerSession(this, socket, ip, slot, tunnelled);
  }

  protected newShared(target: string, user: string): SharedSource {
    return new SharedSource(this, target, user, "x");
  }

  /** Pool mode's shared main session opens with the listener. */
  override start(): void {
    if (this.ctx.mode.sharedMain) this.poolMainLanes();
  }

  // ---- MinerHost ----

  versionMask(): number {
    return this.knownMask;
  }

  protected newOwnLane(miner: MinerSession): Lane {
    const minWidth = miner.tunnelled ? STREAM_MIN_EXTRANONCE2 : MINER_EXTRANONCE2_BYTES;
    return new Lane(this, MAIN, false, "auto", null, miner.agent || null, minWidth);
  }

  resumeSlot(sessionId: string, current: number): number | null {
    const r = this.recentSessions.get(sessionId);
    if (r === undefined || Date.now() - r.at > RESUME_WINDOW_MS) return null;
    this.recentSessions.delete(sessionId);
    return this.slots.retake(r.slot, current) ? r.slot : null;
  }

  override releaseMiner(miner: MinerSession): void {
    if (miner.sessionId !== "" && miner.framing === "reframe") {
      if (this.recentSessions.size >= MAX_RECENT_SESSIONS) {
        const oldest = this.recentSessions.keys().next().value;
        if (oldest !== undefined) this.recentSessions.delete(oldest);
      }
      this.recentSessions.set(miner.sessionId, { slot: miner.slot, at: Date.now() });
    }
    super.releaseMiner(miner);
  }

  // ---- LaneHost ----

  /** Sessions presenting the same agent share one options object (Efficient mode: one per miner). */
  upstreamOptions(agent: string | null): UpstreamOptions {
    return this.withRolling.get(this.ctx.agentFor(agent));
  }

  private readonly withRolling = new OptionsByAgent<UpstreamOptions>((agent) => ({
    ...this.sessionOptions(agent),
    versionRolling: true,
  }));

  laneUp(lane: Lane): void {
    const mask = lane.upstream?.versionMask ?? 0;
    // An upstream without version rolling is left out of the intersection: its jobs carry mask 0.
    if (mask !== 0 && (this.knownMask & mask) >>> 0 !== this.knownMask)
      this.knownMask = (this.knownMask & mask) >>> 0;
  }

  laneVersionMask(lane: Lane): void {
    this.laneUp(lane);
  }
}
