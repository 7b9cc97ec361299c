/**
 * Which transports of spec §4 the engine implements. The others (an RMS2/RMS3 fee pool outside the
 * Bitcoin and Equihash families, the RMS tunnel on the forwarding coin) are refused by the API and never started by
 * the engine: a port that asks for one must not be served as plain TCP/SSL instead, silently.
 */
import { familyOf, isCategory } from "../catalog/categories.ts";
import { ConnectMode, ListenProtocol, type Port, type PortSetting, type PortWallet } from "./port.ts";

const TUNNEL_LISTEN: readonly number[] = [ListenProtocol.RMS, ListenProtocol.RMS2, ListenProtocol.RMS3];
const TUNNEL_UPSTREAM: readonly number[] = [ConnectMode.RMS2, ConnectMode.RMS3];
/** the forwarding coin relays bytes without stratum: it has no streams or sessions to carry in a tunnel */
const FORWARD_CATEGORY = "nginx";

/**
 * The families whose fee pool may be another Pithead's tunnel port (RMS2/RMS3). A fee session is
 * shared by the farm port's miners, each told apart by a slot byte of its own, which must fit after
 * what the server port gives a tunnel stream (docs/rms-tunnel.md, "Fee pools behind the server
 * appliance"). The Bitcoin family's server port gives streams its pool's extranonce2 less its own
 * slot byte; an Equihash stream's NONCE_1 (the pool's, and the server's slot byte on a shared
 * session) leaves most of the 32-byte nonce. The other families' miners take a prefix of a few
 * bytes at most (KawPow, Kaspa, Ethereum and Alephium miners) or split a 4-byte nonce (CryptoNote),
 * so a second slot byte does not fit: refused.
 */
const TUNNEL_FEE_FAMILIES: readonly string[] = ["bitcoin", "equihash"];

export function tunnelFeePoolAllowed(category: string): boolean {
  return isCategory(category) && TUNNEL_FEE_FAMILIES.includes(familyOf(category));
}

/** A transport the port asks for that is not implemented: named for a log line, and the field asking. */
export interface MissingTransport {
  what: string;
  field: "protocol" | "setting.et_mode" | "connect_mode" | "wallets";
}

/** The first transport the port asks for that is not implemented, or null. */
export function missingTransport(
  p: Pick<Port, "protocol" | "setting" | "connect_mode"> & {
    category?: string;
    wallets: readonly Pick<PortWallet, "ratio" | "pool_protocol">[];
  },
): MissingTransport | null {
  if (p.category === FORWARD_CATEGORY && TUNNEL_LISTEN.includes(p.protocol))
    return { what: "the RMS tunnel on a forwarding port", field: "protocol" };
  if (p.setting.et_mode === 1 && p.protocol !== ListenProtocol.SSL)
    return { what: "KENC over a protocol other than SSL", field: "setting.et_mode" };
  if (p.setting.et_mode === 2 && p.protocol !== ListenProtocol.TCP)
    return { what: "SOCKS5 over a protocol other than TCP", field: "setting.et_mode" };
  if (p.category === FORWARD_CATEGORY && TUNNEL_UPSTREAM.includes(p.connect_mode))
    return { what: "an RMS2/RMS3 target on a forwarding port", field: "connect_mode" };
  if (
    !tunnelFeePoolAllowed(p.category ?? "") &&
    p.wallets.some((w) => w.ratio > 0 && TUNNEL_UPSTREAM.includes(w.pool_protocol))
  )
    return { what: "an RMS2/RMS3 fee pool outside the Bitcoin and Equihash families", field: "wallets" };
  return null;
}

/** RFC 1929 credentials of a SOCKS5 port. */
export interface SocksCredentials {
  user: string;
  password: string;
}

/** RFC 1929 caps each of the two at 255 bytes (one length byte). */
export const SOCKS_CREDENTIAL_MAX_BYTES = 255;

/** The credentials a SOCKS5 port asks for, or null when it asks for none. */
export function socksCredentials(
  s: Pick<PortSetting, "socks_user" | "socks_password">,
): SocksCredentials | null {
  const user = s.socks_user ?? "";
  const password = s.socks_password ?? "";
  return user === "" && password === "" ? null : { user, password };
}

/**
 * The front-end a port's listener puts before its stratum (spec §4): SOCKS5 is TCP with et_mode 2,
 * KENC is SSL with et_mode 1 (its frames run on plain TCP: docs/kenc.md says why); null: none.
 */
export function frontOf(p: Pick<Port, "protocol" | "setting">): "socks5" | "kenc" | null {
  if (p.protocol === ListenProtocol.TCP && p.setting.et_mode === 2) return "socks5";
  if (p.protocol === ListenProtocol.SSL && p.setting.et_mode === 1) return "kenc";
  return null;
}
