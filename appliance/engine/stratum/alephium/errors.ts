/**
 * Share-path errors as data: the reference pool's codes (alephium/mining-pool lib/jobManager.js) and
 * a message, written to miners as [code, message, null].
 */
export const AlphErrorCode = {
  /** malformed requests and unknown methods; the reference pool also uses 20 for "job not found" */
  OTHER: 20,
  JOB_NOT_FOUND: 20,
  INVALID_JOB_CHAIN_INDEX: 21,
  INVALID_WORKER: 22,
  INVALID_NONCE: 23,
  DUPLICATE: 24,
  LOW_DIFFICULTY: 25,
  INVALID_BLOCK_CHAIN_INDEX: 26,
} as const;

export class AlphError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}

  /** A pool's refusal that means the job expired, not that the share was bad. */
  get stale(): boolean {
    return /job not found|expired|stale/i.test(this.message);
  }
}

export const STALE_JOB = (): AlphError =>
  new AlphError(AlphErrorCode.JOB_NOT_FOUND, "job not found, maybe expired");

/**
 * A pool's answer to a share or login: null when accepted. The reference pool answers a rejected
 * share with `result: null` and no error at all; others send [code, msg] or {code, message}.
 */
export function readVerdict(result: unknown, error: unknown): AlphError | null {
  if (error !== null && error !== undefined && error !== false) {
    if (Array.isArray(error))
      return new AlphError(
        typeof error[0] === "number" ? error[0] : AlphErrorCode.OTHER,
        typeof error[1] === "string" ? error[1] : "rejected",
      );
    if (typeof error === "object") {
      const o = error as { code?: unknown; message?: unknown };
      return new AlphError(
        typeof o.code === "number" ? o.code : AlphErrorCode.OTHER,
        typeof o.message === "string" ? o.message : "rejected",
      );
    }
    return new AlphError(AlphErrorCode.OTHER, String(error).slice(0, 200));
  }
  return result === true ? null : new AlphError(AlphErrorCode.OTHER, "rejected");
}
