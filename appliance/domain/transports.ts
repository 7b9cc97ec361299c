/**
 * Which transports of spec §4 the engine implements. The others (the RMS tunnel family, KENC) are
 * refused by the API and never started by the engine: a port that asks for one must not be served
 * as plain TCP/SSL instead, silently.
 */
import { ConnectMode, ListenProtocol, type Port } from "./port.ts";

const TUNNEL_LISTEN: readonly number[] = [ListenProtocol.RMS, ListenProtocol.RMS2, ListenProtocol.RMS3];
const TUNNEL_UPSTREAM: readonly number[] = [ConnectMode.RMS2, ConnectMode.RMS3];

/** The first transport the port asks for that is not implemented, named for a log line, or null. */
export function missingTransport(
  p: Pick<Port, "protocol" | "setting" | "connect_mode" | "connect_mode2" | "pool_address2" | "wallets">,
): string | null {
  if (TUNNEL_LISTEN.includes(p.protocol)) return "the RMS tunnel listener";
  if (p.protocol === ListenProtocol.SSL && p.setting.et_mode === 1) return "the KENC listener";
  if (p.setting.et_mode === 2 && p.protocol !== ListenProtocol.TCP)
    return "SOCKS5 over a protocol other than TCP";
  if (TUNNEL_UPSTREAM.includes(p.connect_mode)) return "an RMS2/RMS3 upstream";
  if (p.pool_address2.trim() !== "" && TUNNEL_UPSTREAM.includes(p.connect_mode2))
    return "an RMS2/RMS3 standby upstream";
  if (p.wallets.some((w) => w.ratio > 0 && TUNNEL_UPSTREAM.includes(w.pool_protocol)))
    return "an RMS2/RMS3 fee pool";
  return null;
}
