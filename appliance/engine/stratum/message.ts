/**
 * The JSON envelope shared by every stratum family: a request/notification has a method, a response
 * has a result or an error. Parsing the envelope is the only JSON.parse on the share path.
 */
export type StratumId = number | string | null;

/** Positional (Bitcoin, Ethereum) or named (CryptoNote login/submit, Alephium job objects). */
export type StratumParams = unknown[] | Record<string, unknown>;

export interface StratumRequest {
  kind: "request";
  id: StratumId;
  method: string;
  params: StratumParams;
  /** ETHPROXY's top-level rig name beside method and params (Claymore's `-eworker`), if any */
  worker?: string;
}

export interface StratumResponse {
  kind: "response";
  id: StratumId;
  result: unknown;
  error: unknown;
}

export type StratumMessage = StratumRequest | StratumResponse;

/**
 * Returns null for anything that is not one JSON object in stratum shape. The parsed object itself
 * becomes the message (its fields checked, `kind` added): a wrapper copied from it was one more
 * object per line, on every share and both sides of the proxy.
 */
export function parseMessage(line: string): StratumMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const id = o.id;
  if (id === undefined) o.id = null;
  else if (id !== null && typeof id !== "number" && typeof id !== "string") return null;
  if (typeof o.method === "string") {
    if (o.params === undefined) o.params = [];
    else if (o.params === null || typeof o.params !== "object") return null;
    if (o.worker !== undefined)
      o.worker = typeof o.worker === "string" && o.worker !== "" ? o.worker.slice(0, 128) : undefined;
    o.kind = "request";
    return o as unknown as StratumRequest;
  }
  if (!("result" in o || "error" in o)) return null;
  o.kind = "response";
  return o as unknown as StratumResponse;
}

/** A message of a family whose params are always positional (Bitcoin stratum and its kin). */
export type PositionalMessage = StratumResponse | (StratumRequest & { params: unknown[] });

/** parseMessage for positional families: named params make the line malformed for them. */
export function parsePositional(line: string): PositionalMessage | null {
  const m = parseMessage(line);
  if (m === null || (m.kind === "request" && !Array.isArray(m.params))) return null;
  return m as PositionalMessage;
}

export const requestLine = (id: StratumId, method: string, params: StratumParams): string =>
  `${JSON.stringify({ id, method, params })}\n`;

/** Lines of `numberLine` by method and number, cleared when this many are held. */
const NUMBER_LINES_HELD = 1024;
const numberLines = new Map<string, Map<number, string>>();
let numberLinesHeld = 0;

/**
 * A notification whose params are one number (each family's set_difficulty): every miner is told
 * its difficulty at login and on each change, and a farm mines at a few difficulties, so the same
 * line is made once instead of once per miner.
 */
export function numberLine(method: string, n: number): string {
  let byNumber = numberLines.get(method);
  if (byNumber === undefined) {
    byNumber = new Map();
    numberLines.set(method, byNumber);
  }
  let line = byNumber.get(n);
  if (line === undefined) {
    if (numberLinesHeld >= NUMBER_LINES_HELD) {
      for (const lines of numberLines.values()) lines.clear();
      numberLinesHeld = 0;
    }
    line = requestLine(null, method, [n]);
    byNumber.set(n, line);
    numberLinesHeld++;
  }
  return line;
}

export const resultLine = (id: StratumId, result: unknown): string =>
  result === true
    ? `{"id":${JSON.stringify(id)},"result":true,"error":null}\n`
    : `${JSON.stringify({ id, result, error: null })}\n`;

export const errorLine = (id: StratumId, error: unknown): string =>
  `${JSON.stringify({ id, result: null, error })}\n`;
