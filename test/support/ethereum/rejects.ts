/**
 * Why the test pool refuses a share: a closed set, each with the stratum error code and the message both
 * dialects carry (ETHPROXY as {code, message}, EthereumStratum/1.0.0 as [code, message, null]). Tests look
 * rejects up by reason on the pool and by message on the miner, which only ever sees the message.
 */

export type RejectReason =
  | "stale"
  | "duplicate"
  | "low-difficulty"
  | "bad-mix"
  | "unauthorized"
  | "malformed";

export const REJECT: Record<RejectReason, { code: number; message: string }> = {
  stale: { code: 21, message: "Stale share" },
  duplicate: { code: 22, message: "Duplicate share" },
  "low-difficulty": { code: 23, message: "Low difficulty share" },
  "bad-mix": { code: 20, message: "Mix digest mismatch" },
  unauthorized: { code: 24, message: "Unauthorized worker" },
  malformed: { code: 20, message: "Malformed share" },
};
