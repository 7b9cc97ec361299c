/**
 * One hand-written tuple parser per Equihash stratum method (ZIP 301, protocols.md §F), miner side
 * and pool side. Each returns the typed value (hex lower-case) or a StratumError; none throws.
 * Header fields are hex of the header bytes as they stand in the block (no byte swapping), and are
 * passed on untouched. mining.authorize is Bitcoin's (bitcoin/messages.ts parseAuthorize); the
 * miner's mining.subscribe is the one of both prefix families (prefix-miner.ts parseSubscribe).
 */
import { badParams, type StratumError } from "../bitcoin/errors.ts";
import { EquihashMethod, MAX_PREFIX_BYTES, NONCE_BYTES } from "./methods.ts";

const HEX = /^[0-9a-fA-F]*$/;
/** The longest solution of a coin in the catalogue is 1344 bytes (200,9); a bound for hostile input. */
const MAX_SOLUTION_BYTES = 4096;

/** `v` as lower-case hex, exactly `digits` long (any even length up to it when `upTo`). */
function hex(v: unknown, digits: number, upTo = false): string | null {
  if (typeof v !== "string") return null;
  if (upTo ? v.length > digits || v.length % 2 !== 0 : v.length !== digits) return null;
  return HEX.test(v) ? v.toLowerCase() : null;
}

/**
 * The length a solution's compactSize prefix states and the prefix's own length in hex digits, or
 * null when the prefix is malformed (the only forms a solution can take: 1 byte below 0xfd, fd + 2
 * bytes little-endian).
 */
export function solutionLength(solution: string): { bytes: number; prefixHex: number } | null {
  const first = Number.parseInt(solution.slice(0, 2), 16);
  if (first < 0xfd) return { bytes: first, prefixHex: 2 };
  if (first !== 0xfd || solution.length < 6) return null;
  const bytes = Number.parseInt(solution.slice(4, 6) + solution.slice(2, 4), 16);
  return bytes < 0xfd ? null : { bytes, prefixHex: 6 };
}

// ---- miner side ----

export interface Submit {
  user: string;
  jobId: string;
  /** 8 hex digits, the header's time field */
  time: string;
  /** the miner's part of the nonce; its length is checked against the miner's NONCE_1 */
  nonce2: string;
  /** with its compactSize prefix, which agrees with its length */
  solution: string;
}

/** mining.submit [worker, jobId, time, NONCE_2, solution]. */
export function parseSubmit(params: unknown[]): Submit | StratumError {
  const [user, jobId, time, nonce2, solution] = params;
  if (typeof user !== "string" || user.length > 256) return badParams(EquihashMethod.SUBMIT, "worker");
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(EquihashMethod.SUBMIT, "job id");
  const t = hex(time, 8);
  if (t === null) return badParams(EquihashMethod.SUBMIT, "time");
  const n = hex(nonce2, NONCE_BYTES * 2, true);
  if (n === null || n === "") return badParams(EquihashMethod.SUBMIT, "NONCE_2");
  const s = hex(solution, (MAX_SOLUTION_BYTES + 3) * 2, true);
  const len = s === null || s === "" ? null : solutionLength(s);
  if (s === null || len === null || s.length !== len.prefixHex + len.bytes * 2)
    return badParams(EquihashMethod.SUBMIT, "solution (compactSize length and bytes)");
  return { user, jobId, time: t, nonce2: n, solution: s };
}

// ---- pool side ----

/** The header fields of a job, hex of the header bytes in block order. */
export interface HeaderFields {
  version: string;
  prevHash: string;
  merkleRoot: string;
  reserved: string;
  time: string;
  bits: string;
}

export interface Notify extends HeaderFields {
  jobId: string;
  clean: boolean;
}

/** mining.notify [jobId, version, prevhash, merkleroot, reserved, time, bits, clean]. */
export function parseNotify(params: unknown[]): Notify | StratumError {
  const [jobId, version, prevHash, merkleRoot, reserved, time, bits, clean] = params;
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(EquihashMethod.NOTIFY, "job id");
  const v = hex(version, 8);
  const p = hex(prevHash, 64);
  const m = hex(merkleRoot, 64);
  const r = hex(reserved, 64);
  const t = hex(time, 8);
  const b = hex(bits, 8);
  if (v === null || p === null || m === null || r === null || t === null || b === null)
    return badParams(EquihashMethod.NOTIFY, "header fields");
  return {
    jobId,
    version: v,
    prevHash: p,
    merkleRoot: m,
    reserved: r,
    time: t,
    bits: b,
    clean: clean === true,
  };
}

/** mining.set_target ["<64 hex>"]: some pools drop leading zeros. */
export function parseSetTarget(params: unknown[]): string | null {
  const t = hex(params[0], 64, true);
  return t === null || t === "" || /^0*$/.test(t) ? null : t.padStart(64, "0");
}

/** NONCE_1 of a subscribe answer [sessionId|null, "NONCE_1"]; at most MAX_PREFIX_BYTES. */
export function parseSubscribeResult(result: unknown): string | null {
  if (!Array.isArray(result)) return null;
  return hex(result[1] ?? "", MAX_PREFIX_BYTES * 2, true);
}

/** mining.set_extranonce ["NONCE_1"(, size)]. */
export function parseSetExtranonce(params: unknown[]): string | null {
  return hex(params[0], MAX_PREFIX_BYTES * 2, true);
}
