/**
 * The shared sessions of one target: a fee wallet's sessions, or the main pool's in Pool mode. Each
 * carries 256 miners, told apart by a slot byte after the session's prefix in the nonce's high bytes
 * (SlotLanes); idle fee sessions close after feeIdleMs.
 */
import { SlotLanes } from "../slot-lanes.ts";
import { Lane, type LaneHost, type LaneMiner } from "./lane.ts";

export class SharedSource extends SlotLanes<Lane, LaneMiner> {
  constructor(host: LaneHost, target: string, user: string, password: string) {
    super(() => new Lane(host, target, true, user, password));
  }
}
