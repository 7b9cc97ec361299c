/**
 * Share-path errors as data: a stratum code and a message. Each dialect writes them its own way:
 * ETHPROXY as {code, message} beside `result: false`, EthereumStratum/1.0.0 as [code, message, null].
 */
import type { Dialect } from "./methods.ts";

export const EthErrorCode = {
  OTHER: 20,
  STALE: 21,
  DUPLICATE: 22,
  LOW_DIFFICULTY: 23,
  UNAUTHORIZED: 24,
  NOT_SUBSCRIBED: 25,
} as const;

export class EthError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}

  wire(dialect: Dialect): unknown {
    return dialect === "ethproxy"
      ? { code: this.code, message: this.message }
      : [this.code, this.message, null];
  }
}

export const badParams = (method: string, why: string): EthError =>
  new EthError(EthErrorCode.OTHER, `invalid ${method} params: ${why}`);

/** A pool's error field in any of the shapes pools send: [code, msg, tb], {code, message}, a string. */
export function readPoolError(raw: unknown): EthError | null {
  if (raw === null || raw === undefined || raw === false) return null;
  if (Array.isArray(raw))
    return new EthError(
      typeof raw[0] === "number" ? raw[0] : EthErrorCode.OTHER,
      typeof raw[1] === "string" ? raw[1] : "rejected",
    );
  if (typeof raw === "object") {
    const o = raw as { code?: unknown; message?: unknown };
    return new EthError(
      typeof o.code === "number" ? o.code : EthErrorCode.OTHER,
      typeof o.message === "string" ? o.message : "rejected",
    );
  }
  return new EthError(EthErrorCode.OTHER, String(raw));
}
