/**
 * What both ends of the RMS tunnel agree on before any stream (docs/rms-tunnel.md): the HKDF salt of
 * its KENC link and the window bounds.
 */
import { POOL_MAX_PENDING_BYTES } from "../line-writer.ts";
import { TunnelError } from "./frames.ts";

/** The tunnel's KENC keys are derived with this salt, not KENC's: a one-miner KENC peer never opens a tunnel. */
export const RMS_SALT = "pithead-rms-v1";
/** bytes waiting on a tunnel link for a peer that does not read before it is cut (it then resumes) */
export const TUNNEL_MAX_PENDING = POOL_MAX_PENDING_BYTES;
export const MIN_WINDOW = 1024;
export const MAX_WINDOW = 512 * 1024;

export function checkWindow(window: number): number {
  if (window < MIN_WINDOW || window > MAX_WINDOW) throw new TunnelError(`window ${window} out of range`);
  return window;
}
