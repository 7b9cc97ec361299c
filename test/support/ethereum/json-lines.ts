/**
 * Newline-delimited JSON for the Ethereum test pool and miner, written here rather than borrowed from the
 * engine so that a fault in the engine's codec cannot hide behind the same fault in its test peers. Lines are
 * bounded (a peer cannot make us buffer without limit) and delivered strictly in order.
 */

export type MessageId = number | string | null;

/** One JSON-RPC-ish object: a request has a method, a response a result and/or an error. */
export interface Envelope {
  id: MessageId;
  method: string | null;
  params: unknown[];
  result: unknown;
  error: unknown;
  /** ETHPROXY carries the rig name at top level, beside method and params */
  worker: string | null;
}

/** Longest line either dialect needs: a work array or notify is ≈250 bytes. */
export const MAX_LINE_CHARS = 16 * 1024;

export function parseEnvelope(line: string): Envelope | null {
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
  const params = o.params ?? [];
  if (!Array.isArray(params)) return null;
  const method = typeof o.method === "string" ? o.method : null;
  if (method === null && !("result" in o) && !("error" in o)) return null;
  return {
    id,
    method,
    params,
    result: o.result,
    error: o.error,
    worker: typeof o.worker === "string" && o.worker !== "" ? o.worker : null,
  };
}

/** The text of a stratum error in either shape ([code, message, …] or {code, message}), if any. */
export function errorMessage(error: unknown): string | null {
  if (error === null || error === undefined || error === false) return null;
  if (typeof error === "string") return error;
  if (Array.isArray(error)) return typeof error[1] === "string" ? error[1] : JSON.stringify(error);
  if (typeof error === "object") {
    const m = (error as Record<string, unknown>).message;
    return typeof m === "string" ? m : JSON.stringify(error);
  }
  return String(error);
}

/** Splits one socket's bytes into lines; calls onOverflow once and stops when a line exceeds the bound. */
export class LineReader {
  private readonly decoder = new TextDecoder();
  private partial = "";
  private overflowed = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.overflowed) return;
    const lines = (this.partial + this.decoder.decode(chunk, { stream: true })).split("\n");
    this.partial = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.length > MAX_LINE_CHARS) {
        this.overflow();
        return;
      }
      if (line !== "") this.onLine(line);
      if (this.overflowed) return;
    }
    if (this.partial.length > MAX_LINE_CHARS) this.overflow();
  }

  private overflow(): void {
    this.overflowed = true;
    this.partial = "";
    this.onOverflow();
  }
}
