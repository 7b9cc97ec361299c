/**
 * POST /api/ping: connect to an upstream and time how long it takes to answer mining.subscribe.
 */
import { ConnectMode } from "../domain/port.ts";
import { PROXY_AGENT } from "./stratum/agent.ts";
import { probeBitcoinPool } from "./stratum/bitcoin/probe.ts";
import { parseEndpoint } from "./transport/endpoint.ts";

export function pingUpstream(address: string, connType: number, timeoutMs: number): Promise<number> {
  const ep = parseEndpoint(address, connType === ConnectMode.SSL ? ConnectMode.SSL : ConnectMode.TCP);
  if (ep === null) return Promise.reject(new Error("invalid pool address"));
  return probeBitcoinPool(ep, PROXY_AGENT, timeoutMs);
}
