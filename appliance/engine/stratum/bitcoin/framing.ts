/**
 * How a miner's extranonce space maps into an upstream's (protocols.md, "Proxy techniques" §1).
 *
 * reframe: the miner gets a fixed 1-byte extranonce1 T (its slot) and an extranonce2 of `width`
 * bytes. For upstream u the proxy sends coinb1' = coinb1_u ‖ en1_u and coinb2' = pad ‖ coinb2_u,
 * and forwards en2_u = T ‖ en2_miner ‖ pad with |pad| = en2size_u − 1 − width. The coinbase length
 * never changes, so the scriptSig length byte stays valid, and the miner can be moved between any
 * upstreams with en2size ≥ 1 + width by sending the other source's notify. On shared sessions T is
 * also the miner's slot, so 256 miners fit one session.
 *
 * T leads en2_u, and the pad trails it, so that miners of different widths can share a session:
 * the first byte tells them apart whatever their width. With the pad in front, a wide miner's slot
 * would sit where a narrow miner's pad byte sits, and their ranges could overlap.
 *
 * A miner's width is 3 bytes (ample for an ASIC between jobs: 2^24 × 2^32 nonces × version rolling).
 * A tunnel stream (docs/rms-tunnel.md, "Extranonce of a tunnel stream") may be another Pithead's
 * pool session, which re-frames again behind it with its own slot byte and its miners' 3 bytes, so
 * it needs at least 4: it gets its upstream's extranonce2 less the slot byte.
 *
 * passthrough: the miner gets the upstream's own extranonce1 and extranonce2 size; used only when
 * the upstream's extranonce2 is too small to re-frame. Such a miner cannot be moved between pools.
 */
export type Framing = "reframe" | "passthrough";

export const MINER_EXTRANONCE1_BYTES = 1;
export const MINER_EXTRANONCE2_BYTES = 3;
export const REFRAME_MIN_EXTRANONCE2 = MINER_EXTRANONCE1_BYTES + MINER_EXTRANONCE2_BYTES;
/** what a tunnel stream needs: room for a chained Pithead's own slot byte and its miners' 3 bytes */
export const STREAM_MIN_EXTRANONCE2 = REFRAME_MIN_EXTRANONCE2;
/**
 * The widest extranonce2 a tunnel stream is given: miners keep extranonce2 in a 64-bit counter
 * (cgminer's nonce2 is a uint64), so more bytes would buy nothing and some firmware refuses them.
 */
export const STREAM_MAX_EXTRANONCE2 = 8;
export { SLOTS_PER_SESSION, slotHex } from "../slot-bytes.ts";

/**
 * The extranonce2 a re-framed miner gets on an upstream whose extranonce2 is `upstreamSize`: 3
 * bytes for a miner, all the upstream leaves after the slot byte (3 to 8) for a tunnel stream.
 */
export function minerWidth(upstreamSize: number, tunnelled: boolean): number {
  if (!tunnelled) return MINER_EXTRANONCE2_BYTES;
  const room = upstreamSize - MINER_EXTRANONCE1_BYTES;
  return Math.max(MINER_EXTRANONCE2_BYTES, Math.min(room, STREAM_MAX_EXTRANONCE2));
}

/** Whether a miner of `width` bytes fits an upstream whose extranonce2 is `upstreamSize` (re-framed). */
export const fitsUpstream = (upstreamSize: number, width: number): boolean =>
  upstreamSize >= MINER_EXTRANONCE1_BYTES + width;

/**
 * Fresh work for a miner that already mined the current job: a generation byte in the pad when the
 * upstream leaves room, otherwise a later ntime (pools accept ntime rolled forward by minutes).
 */
export const MAX_NTIME_ROLL = 240;

/**
 * Pads by length, then generation: an extranonce2 is at most 16 bytes (the parsers refuse more), so
 * there are at most 16 × 256 of them, and a job needs its miner's pad for every notify and share.
 */
const pads: string[][] = [];

/** The pad after the miner's extranonce2 for a miner of `width` bytes (its first byte: the generation). */
export function padFor(extranonce2Size: number, width: number, generation: number): string {
  const len = extranonce2Size - MINER_EXTRANONCE1_BYTES - width;
  if (len <= 0) return "";
  pads[len] ??= [];
  const byGeneration = pads[len];
  const g = generation & 0xff;
  byGeneration[g] ??= g.toString(16).padStart(2, "0") + "00".repeat(len - 1);
  return byGeneration[g];
}
