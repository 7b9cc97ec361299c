/**
 * Newline-delimited JSON-RPC for the CryptoNote test pool and miner, written apart from the engine's
 * codec on purpose: the test side must not share parsing code with the proxy it judges. CryptoNote
 * stratum (xmrig's protocol) puts named params in an object, not an array, and tags every message
 * with "jsonrpc":"2.0".
 */

/** A login or submit line is a few hundred bytes; anything near this bound is garbage or an attack. */
export const MAX_LINE_BYTES = 16 * 1024;

const NEWLINE = 10;
const decoder = new TextDecoder();

/** Splits a socket's bytes into lines, in order, giving up (once) when a line exceeds the bound. */
export class LineReader {
  private partial: Uint8Array | null = null;
  private overflowed = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    let bytes = chunk;
    if (this.partial !== null) {
      bytes = new Uint8Array(this.partial.length + chunk.length);
      bytes.set(this.partial, 0);
      bytes.set(chunk, this.partial.length);
      this.partial = null;
    }
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl >= 0; nl = bytes.indexOf(NEWLINE, start)) {
      if (nl - start > this.maxBytes) {
        this.overflow();
        return;
      }
      const line = decoder.decode(bytes.subarray(start, nl)).trim();
      start = nl + 1;
      if (line.length > 0) this.onLine(line);
      if (this.overflowed) return;
    }
    if (bytes.length - start > this.maxBytes) {
      this.overflow();
      return;
    }
    // Copy: the socket may reuse the chunk's memory after this call.
    if (start < bytes.length) this.partial = bytes.slice(start);
  }

  private overflow(): void {
    this.overflowed = true;
    this.partial = null;
    this.onOverflow();
  }
}

export type RpcId = number | string | null;

export interface RpcError {
  code: number;
  message: string;
}

export interface RpcRequest {
  kind: "request";
  id: RpcId;
  method: string;
  params: unknown;
}

export interface RpcResponse {
  kind: "response";
  id: RpcId;
  result: unknown;
  error: RpcError | null;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** One JSON-RPC message, or null for anything else (bad JSON, wrong shapes, an error without text). */
export function parseRpcLine(line: string): RpcRequest | RpcResponse | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(raw)) return null;
  const id = raw.id ?? null;
  if (id !== null && typeof id !== "number" && typeof id !== "string") return null;
  if (typeof raw.method === "string") return { kind: "request", id, method: raw.method, params: raw.params };
  if (!("result" in raw) && !("error" in raw)) return null;
  let error: RpcError | null = null;
  if (raw.error !== null && raw.error !== undefined) {
    if (!isRecord(raw.error) || typeof raw.error.message !== "string") return null;
    error = { code: typeof raw.error.code === "number" ? raw.error.code : -1, message: raw.error.message };
  }
  return { kind: "response", id, result: raw.result ?? null, error };
}

export const requestLine = (id: RpcId, method: string, params: unknown): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`;

/** A notification: CryptoNote pools send jobs without an id. */
export const notificationLine = (method: string, params: unknown): string =>
  `${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`;

export const resultLine = (id: RpcId, result: unknown): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", error: null, result })}\n`;

export const errorLine = (id: RpcId, error: RpcError): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", error, result: null })}\n`;
