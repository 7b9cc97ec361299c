/**
 * The shared sessions of one target in one dialect: a fee wallet's sessions, or the main pool's in
 * Pool mode. ES1 sessions carry 256 miners each, told apart by a slot byte after the session's
 * prefix (SlotLanes); ETHPROXY has no nonce split (miners draw random 64-bit nonces and shares are
 * routed by header hash), so one session carries every ETHPROXY miner.
 */
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";
import type { Dialect } from "./methods.ts";

export class SharedSource extends SlotLanes<Lane, LaneMiner> {
  constructor(
    host: LaneHost,
    readonly target: string,
    readonly dialect: Dialect,
    user: string,
    password: string,
  ) {
    super(() => new Lane(host, target, dialect, true, user, password));
  }

  /** The lane holding this miner (its slot, for ES1), opening one if needed. */
  override leaseFor(miner: LaneMiner): Lane {
    return this.dialect === "ethproxy" ? this.first() : super.leaseFor(miner);
  }
}
