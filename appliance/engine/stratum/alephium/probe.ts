/**
 * The Alephium ping and fail-back probe: a mining.subscribe, timed to the answer. The reference pool
 * answers it without a login (with the word "result"); a refusal counts as up too.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { probeByRequest } from "../line-probe.ts";
import { requestLine } from "../message.ts";
import { AlphMethod } from "./methods.ts";

export function probeAlephiumPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  return probeByRequest(endpoint, requestLine(1, AlphMethod.SUBSCRIBE, [agent]), timeoutMs);
}
