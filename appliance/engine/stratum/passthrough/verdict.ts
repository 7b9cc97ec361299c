/**
 * The share requests of the pass-through coins and how a pool's answer to one reads. The relay does
 * not understand jobs or shares; it only pairs a submit's id with the pool's response to count the
 * verdict (the pool's verdict is the truth, as in every family).
 */
import type { ShareOutcome } from "../../../stats/device-registry.ts";

/** Requests that carry a share: Bitcoin-style stratum, CryptoNote/Grin style, ETHPROXY. */
export const SUBMIT_METHODS: ReadonlySet<string> = new Set(["mining.submit", "submit", "eth_submitWork"]);

/** Words pools use for a share that came too late (as the CryptoNote family reads them). */
const STALE = /stale|expired|old job|unknown job|job not found|invalid job/i;

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (Array.isArray(error)) return String(error[1] ?? error[0] ?? "");
  if (error !== null && typeof error === "object") {
    const m = (error as { message?: unknown }).message;
    return typeof m === "string" ? m : "";
  }
  return "";
}

/** A response to a submit: an error, `false` or a status other than OK reject; anything else accepts. */
export function verdictOf(result: unknown, error: unknown): ShareOutcome {
  if (error !== null && error !== undefined && error !== false)
    return STALE.test(errorText(error)) ? "stale" : "invalid";
  if (result === false || result === null || result === undefined) return "invalid";
  if (result !== null && typeof result === "object" && "status" in result) {
    const status = (result as { status?: unknown }).status;
    return typeof status === "string" && status.toUpperCase() === "OK" ? "valid" : "invalid";
  }
  return "valid";
}

/**
 * What the miner is told when the port forces a successful share return (setting.fr), in the shape
 * of its submit; null where the success shape of the coin's protocol is not known (the pool's own
 * answer is then relayed).
 */
export function forcedSuccess(category: string, method: string, idJson: string): string | null {
  if (method === "mining.submit" || method === "eth_submitWork")
    return `{"id":${idJson},"result":true,"error":null}\n`;
  // Dynex speaks CryptoNote's submit; Grin's answer shape differs and is left to its pool.
  if (method === "submit" && category === "dynexsolve")
    return `{"id":${idJson},"jsonrpc":"2.0","result":{"status":"OK"},"error":null}\n`;
  return null;
}
