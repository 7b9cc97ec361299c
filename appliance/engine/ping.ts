/**
 * POST /api/ping: connect to an upstream and time how long it takes to log in the way the coin's
 * protocol family does (mining.subscribe for Bitcoin stratum, login for CryptoNote, …). Without a
 * coin, Bitcoin stratum's subscribe is the test.
 */
import { ConnectMode } from "../domain/port.ts";
import { PROXY_AGENT } from "./stratum/agent.ts";
import { probeBitcoinPool } from "./stratum/bitcoin/probe.ts";
import { familyFor } from "./stratum/families.ts";
import { parseEndpoint } from "./transport/endpoint.ts";

export function pingUpstream(
  address: string,
  connType: number,
  timeoutMs: number,
  category: string | null = null,
): Promise<number> {
  const ep = parseEndpoint(address, connType === ConnectMode.SSL ? ConnectMode.SSL : ConnectMode.TCP);
  if (ep === null) return Promise.reject(new Error("invalid pool address"));
  if (category === null) return probeBitcoinPool(ep, PROXY_AGENT, timeoutMs);
  const family = familyFor(category);
  if (family === null) return Promise.reject(new Error(`the ${category} protocol family is not implemented`));
  return family.probe(ep, PROXY_AGENT, timeoutMs);
}
