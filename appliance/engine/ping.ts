/**
 * POST /api/ping: connect to an upstream and time how long it takes to log in the way the coin's
 * protocol family does (mining.subscribe for Bitcoin stratum, login for CryptoNote, …). Without a
 * coin, Bitcoin stratum's subscribe is the test. An RMS2/RMS3 pool is reached through a tunnel, as a
 * port would reach it.
 */
import { PROXY_AGENT } from "./stratum/agent.ts";
import { probeBitcoinPool } from "./stratum/bitcoin/probe.ts";
import { familyFor } from "./stratum/families.ts";
import { NO_CREDENTIALS, TunnelUplinks, type UplinkCredentials } from "./transport/tunnel/uplinks.ts";

export async function pingUpstream(
  address: string,
  connType: number,
  timeoutMs: number,
  category: string | null = null,
  /** the KENC key and RMS password an RMS2/RMS3 pool (another Pithead's tunnel port) is reached with */
  credentials: UplinkCredentials = NO_CREDENTIALS,
): Promise<number> {
  const family = category === null ? null : familyFor(category);
  if (category !== null && family === null)
    throw new Error(`the ${category} protocol family is not implemented`);
  // an RMS2/RMS3 pool is tested as a port reaches it: through a tunnel of its own, for this test only
  const uplinks = new TunnelUplinks(credentials, () => {});
  try {
    const ep = uplinks.endpoint(address, connType);
    if (ep === null) throw new Error("invalid pool address");
    return await (family === null
      ? probeBitcoinPool(ep, PROXY_AGENT, timeoutMs)
      : family.probe(ep, PROXY_AGENT, timeoutMs));
  } finally {
    uplinks.stop();
  }
}
