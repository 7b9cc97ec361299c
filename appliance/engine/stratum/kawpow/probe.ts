/**
 * The fail-back probe and ping for KawPow pools: a mining.subscribe timed to its answer (line-probe.ts).
 * Any answer counts, a refusal too; authorizing would need a wallet the probe lacks.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { probeByRequest } from "../line-probe.ts";
import { requestLine } from "../message.ts";
import { KawpowMethod } from "./methods.ts";

export function probeKawpowPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  const hello = requestLine(1, KawpowMethod.SUBSCRIBE, [agent, null, endpoint.host, String(endpoint.port)]);
  return probeByRequest(endpoint, hello, timeoutMs);
}
