/**
 * Share-path errors are data: a code from the stratum convention and a message, returned by parsers
 * and checks and serialised as `[code, message, null]`.
 */
export const ErrorCode = {
  OTHER: 20,
  STALE: 21,
  DUPLICATE: 22,
  LOW_DIFFICULTY: 23,
  UNAUTHORIZED: 24,
  NOT_SUBSCRIBED: 25,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export class StratumError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}

  toJSON(): [number, string, null] {
    return [this.code, this.message, null];
  }
}

export const isStratumError = (v: unknown): v is StratumError => v instanceof StratumError;

export const badParams = (method: string, why: string): StratumError =>
  new StratumError(ErrorCode.OTHER, `invalid ${method} params: ${why}`);

/** Reads a pool's error field, which pools send as [code,msg,tb], {code,message} or a string. */
export function readPoolError(raw: unknown): StratumError | null {
  if (raw === null || raw === undefined || raw === false) return null;
  if (Array.isArray(raw)) {
    const code = typeof raw[0] === "number" ? raw[0] : ErrorCode.OTHER;
    return new StratumError(code, typeof raw[1] === "string" ? raw[1] : "rejected");
  }
  if (typeof raw === "object") {
    const o = raw as { code?: unknown; message?: unknown };
    return new StratumError(
      typeof o.code === "number" ? o.code : ErrorCode.OTHER,
      typeof o.message === "string" ? o.message : "rejected",
    );
  }
  return new StratumError(ErrorCode.OTHER, String(raw));
}
