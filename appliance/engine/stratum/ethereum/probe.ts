/**
 * The Ethereum ping and fail-back probe: an EthereumStratum/1.0.0 subscribe, timed to the first
 * answer. A refusal counts too: a pool that speaks only ETHPROXY refuses the subscribe but is up,
 * and a login would need a wallet the probe lacks.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { probeByRequest } from "../line-probe.ts";
import { requestLine } from "../message.ts";
import { NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";

export function probeEthereumPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  return probeByRequest(
    endpoint,
    requestLine(1, NicehashMethod.SUBSCRIBE, [agent, NICEHASH_PROTOCOL]),
    timeoutMs,
  );
}
