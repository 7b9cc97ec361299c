/**
 * The fail-back probe and ping for Equihash pools: a mining.subscribe timed to its answer (line-probe.ts).
 * Any answer counts, a refusal too; authorizing would need a wallet the probe lacks.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { probeByRequest } from "../line-probe.ts";
import { requestLine } from "../message.ts";
import { EquihashMethod } from "./methods.ts";

export function probeEquihashPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  const hello = requestLine(1, EquihashMethod.SUBSCRIBE, [agent, null, endpoint.host, String(endpoint.port)]);
  return probeByRequest(endpoint, hello, timeoutMs);
}
