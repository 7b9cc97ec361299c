/**
 * Share-path errors are data, answered the way xmrig reads them: `{"code":-1,"message":...}`. xmrig
 * has no error codes of its own; it logs the message, and disconnects on "Unauthenticated" (as it
 * does on "IP is banned"). Whether a rejection counts as stale is read from the message, since
 * CryptoNote pools send -1 for everything.
 */
export const CN_ERROR_CODE = -1;

export class CnError {
  constructor(
    readonly message: string,
    readonly code: number = CN_ERROR_CODE,
  ) {}

  toJSON(): { code: number; message: string } {
    return { code: this.code, message: this.message };
  }
}

export const Errors = {
  unauthenticated: () => new CnError("Unauthenticated"),
  malformed: (why: string) => new CnError(`Malformed request: ${why}`),
  unknownMethod: () => new CnError("Unsupported method"),
  unknownJob: () => new CnError("Invalid job id"),
  badNonceByte: () => new CnError("Invalid nonce; is miner not compatible with NiceHash?"),
  noPool: () => new CnError("No pool available"),
  alreadyLoggedIn: () => new CnError("Already logged in"),
  sessionClosed: () => new CnError("Block expired (pool session closed)"),
  poolSilent: () => new CnError("Pool is not answering"),
} as const;

/** Pools say "Block expired", "Stale share", "Invalid job id" for work that is merely late. */
const STALE = /expired|stale|invalid job/i;

export const isStale = (e: CnError): boolean => STALE.test(e.message);

/** A pool's error field: `{code, message}` normally, a bare string from a few pools. */
export function readPoolError(raw: unknown): CnError | null {
  if (raw === null || raw === undefined || raw === false) return null;
  if (typeof raw === "object" && !Array.isArray(raw)) {
    const o = raw as { code?: unknown; message?: unknown };
    return new CnError(
      typeof o.message === "string" ? o.message : "rejected",
      typeof o.code === "number" ? o.code : CN_ERROR_CODE,
    );
  }
  return new CnError(typeof raw === "string" ? raw : JSON.stringify(raw));
}
