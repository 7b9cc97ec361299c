/**
 * Alephium stratum lines for the test pool and miner, parsed here rather than with the engine's codec so
 * that a fault in the engine cannot hide behind the same fault in its test peers. Params may be positional
 * (subscribe, authorize, set_difficulty, notify) or an object (submit).
 */
export type MessageId = number | string | null;

export interface Message {
  id: MessageId;
  method: string | null;
  params: unknown;
  result: unknown;
  error: unknown;
}

export function parseLine(line: string): Message | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const id = o.id ?? null;
  if (id !== null && typeof id !== "number" && typeof id !== "string") return null;
  return {
    id,
    method: typeof o.method === "string" ? o.method : null,
    params: o.params ?? [],
    result: o.result,
    error: o.error,
  };
}

export const notification = (method: string, params: unknown): string =>
  `${JSON.stringify({ id: null, method, params })}\n`;

export const reply = (id: MessageId, result: unknown): string =>
  `${JSON.stringify({ id, result, error: null })}\n`;

export const errorReply = (id: MessageId, code: number, message: string): string =>
  `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;
