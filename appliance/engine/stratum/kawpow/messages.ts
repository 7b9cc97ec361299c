/**
 * One hand-written tuple parser per KawPow stratum method (protocols.md §G), miner side and pool
 * side. Each returns the typed value (hex lower-case, without 0x) or a StratumError; none throws.
 * mining.authorize is Bitcoin's (bitcoin/messages.ts parseAuthorize); the miner's mining.subscribe
 * is the one of both prefix families (prefix-miner.ts parseSubscribe).
 */
import { badParams, type StratumError } from "../bitcoin/errors.ts";
import { KawpowMethod, MAX_PREFIX_BYTES, NONCE_HEX } from "./methods.ts";

const HEX = /^[0-9a-fA-F]*$/;

/** `v` as lower-case hex without 0x, exactly `digits` long (any even length up to it when `upTo`). */
function hex(v: unknown, digits: number, upTo = false): string | null {
  if (typeof v !== "string") return null;
  const s = v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v;
  if (upTo ? s.length > digits || s.length % 2 !== 0 : s.length !== digits) return null;
  return HEX.test(s) ? s.toLowerCase() : null;
}

/** Like hex(), but the value must carry 0x, as every hex field of a KawPow share does. */
function prefixedHex(v: unknown, digits: number): string | null {
  if (typeof v !== "string" || !(v.startsWith("0x") || v.startsWith("0X"))) return null;
  return hex(v, digits);
}

// ---- miner side ----

export interface Submit {
  user: string;
  jobId: string;
  /** the full 8-byte nonce, 16 hex digits; it must begin with the miner's prefix */
  nonce: string;
  header: string;
  mix: string;
}

/** mining.submit [worker, jobId, "0x<8-byte nonce>", "0x<header hash>", "0x<mix hash>"]. */
export function parseSubmit(params: unknown[]): Submit | StratumError {
  const [user, jobId, nonce, header, mix] = params;
  if (typeof user !== "string" || user.length > 256) return badParams(KawpowMethod.SUBMIT, "worker");
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(KawpowMethod.SUBMIT, "job id");
  const n = prefixedHex(nonce, NONCE_HEX);
  if (n === null) return badParams(KawpowMethod.SUBMIT, "nonce (0x and 8 bytes)");
  const h = prefixedHex(header, 64);
  if (h === null) return badParams(KawpowMethod.SUBMIT, "header hash");
  const m = prefixedHex(mix, 64);
  if (m === null) return badParams(KawpowMethod.SUBMIT, "mix hash");
  return { user, jobId, nonce: n, header: h, mix: m };
}

// ---- pool side ----

export interface Notify {
  jobId: string;
  header: string;
  seed: string;
  /** the share target of this job (kawpow-stratum-pool puts the miner's vardiff target here) */
  target: string | null;
  clean: boolean;
  /** block height and nbits, passed on to miners as the pool sent them */
  height: unknown;
  bits: unknown;
}

/** mining.notify [jobId, headerHash, seedHash, target, clean, height, nbits] (0x tolerated). */
export function parseNotify(params: unknown[]): Notify | StratumError {
  const [jobId, header, seed, target, clean, height, bits] = params;
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(KawpowMethod.NOTIFY, "job id");
  const h = hex(header, 64);
  const s = hex(seed, 64);
  if (h === null || s === null) return badParams(KawpowMethod.NOTIFY, "hashes");
  const t = hex(target, 64, true);
  const okHeight = height === undefined || typeof height === "number" || typeof height === "string";
  const okBits = bits === undefined || (typeof bits === "string" && bits.length <= 16);
  if (!okHeight || !okBits) return badParams(KawpowMethod.NOTIFY, "height or bits");
  return {
    jobId,
    header: h,
    seed: s,
    target: t === null || t === "" ? null : t.padStart(64, "0"),
    clean: clean === true,
    height: height ?? null,
    bits: bits ?? null,
  };
}

/** mining.set_target ["<64 hex>"]: some pools drop leading zeros. */
export function parseSetTarget(params: unknown[]): string | null {
  const t = hex(params[0], 64, true);
  return t === null || t === "" || /^0*$/.test(t) ? null : t.padStart(64, "0");
}

/** The nonce prefix of a subscribe answer [sessionId|null, "prefix"]; at most MAX_PREFIX_BYTES. */
export function parseSubscribeResult(result: unknown): string | null {
  if (!Array.isArray(result)) return null;
  return hex(result[1] ?? "", MAX_PREFIX_BYTES * 2, true);
}

/** mining.set_extranonce ["prefix"(, size)]. */
export function parseSetExtranonce(params: unknown[]): string | null {
  return hex(params[0], MAX_PREFIX_BYTES * 2, true);
}
