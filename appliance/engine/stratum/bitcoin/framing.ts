/**
 * How a miner's extranonce space maps into an upstream's (protocols.md, "Proxy techniques" §1).
 *
 * reframe: the miner gets a fixed 1-byte extranonce1 T and a 3-byte extranonce2. For upstream u
 * the proxy sends coinb1' = coinb1_u ‖ en1_u ‖ pad and forwards en2_u = pad ‖ T ‖ en2_miner with
 * |pad| = en2size_u − 4. The coinbase length never changes, so the scriptSig length byte stays
 * valid, and the miner can be moved between any upstreams with en2size ≥ 4 by sending the other
 * source's notify. On shared sessions T is also the miner's slot, so 256 miners fit one session.
 *
 * passthrough: the miner gets the upstream's own extranonce1 and extranonce2 size; used only when
 * the upstream's extranonce2 is too small to re-frame. Such a miner cannot be moved between pools.
 */
export type Framing = "reframe" | "passthrough";

export const MINER_EXTRANONCE1_BYTES = 1;
export const MINER_EXTRANONCE2_BYTES = 3;
export const REFRAME_MIN_EXTRANONCE2 = MINER_EXTRANONCE1_BYTES + MINER_EXTRANONCE2_BYTES;
export { SLOTS_PER_SESSION, slotHex } from "../slot-bytes.ts";

/**
 * Fresh work for a miner that already mined the current job: a generation byte in the pad when the
 * upstream leaves room, otherwise a later ntime (pools accept ntime rolled forward by minutes).
 */
export const MAX_NTIME_ROLL = 240;

export function padFor(extranonce2Size: number, generation: number): string {
  const len = extranonce2Size - REFRAME_MIN_EXTRANONCE2;
  if (len <= 0) return "";
  return (generation & 0xff).toString(16).padStart(2, "0") + "00".repeat(len - 1);
}
