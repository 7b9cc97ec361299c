/**
 * One hand-written tuple parser per Ethereum stratum method (protocols.md §B), miner side and pool
 * side. Each returns the typed value (hex lower-case, without 0x) or an EthError; none throws.
 */
import { badParams, type EthError } from "./errors.ts";
import { EthproxyMethod, MAX_PREFIX_BYTES, NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";

const HEX = /^[0-9a-fA-F]+$/;

/** `v` as lower-case hex without 0x, exactly `digits` long (any even length up to it when `upTo`). */
function hex(v: unknown, digits: number, upTo = false): string | null {
  if (typeof v !== "string") return null;
  const s = v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v;
  if (upTo ? s.length > digits || s.length % 2 !== 0 : s.length !== digits) return null;
  if (s.length > 0 && !HEX.test(s)) return null;
  return s.toLowerCase();
}

// ---- miner side ----

export interface Login {
  user: string;
  password: string;
}

/** eth_submitLogin ["wallet(.rig)", "password"?] and mining.authorize ["wallet(.rig)", "password"?]. */
export function parseLogin(method: string, params: unknown[]): Login | EthError {
  const [user, password] = params;
  if (typeof user !== "string" || user.length === 0 || user.length > 256) return badParams(method, "user");
  if (password !== undefined && password !== null && typeof password !== "string")
    return badParams(method, "password");
  return { user, password: typeof password === "string" ? password.slice(0, 256) : "x" };
}

export interface SubmitWork {
  nonce: string;
  header: string;
  mix: string;
}

/** eth_submitWork ["0x<8-byte nonce>", "0x<header hash>", "0x<mix digest>"]. */
export function parseSubmitWork(params: unknown[]): SubmitWork | EthError {
  const nonce = hex(params[0], 16);
  const header = hex(params[1], 64);
  const mix = hex(params[2], 64);
  if (nonce === null) return badParams(EthproxyMethod.SUBMIT_WORK, "nonce");
  if (header === null) return badParams(EthproxyMethod.SUBMIT_WORK, "header");
  if (mix === null) return badParams(EthproxyMethod.SUBMIT_WORK, "mix digest");
  return { nonce, header, mix };
}

/** eth_submitHashrate ["0x<rate, up to 32 bytes>", "0x<id>"]: hashes per second. */
export function parseSubmitHashrate(params: unknown[]): number | EthError {
  const rate = hex(params[0], 64, true);
  if (rate === null || rate === "") return badParams(EthproxyMethod.SUBMIT_HASHRATE, "rate");
  return Number(BigInt(`0x${rate}`));
}

/** mining.subscribe ["agent", "EthereumStratum/1.0.0"]: the agent; other protocols are refused. */
export function parseNicehashSubscribe(params: unknown[]): string | EthError {
  const [agent, protocol] = params;
  if (agent !== undefined && agent !== null && typeof agent !== "string")
    return badParams(NicehashMethod.SUBSCRIBE, "agent");
  if (protocol !== NICEHASH_PROTOCOL) return badParams(NicehashMethod.SUBSCRIBE, "unsupported protocol");
  return typeof agent === "string" ? agent.slice(0, 128) : "";
}

export interface NicehashSubmit {
  user: string;
  jobId: string;
  /** the nonce without the extranonce prefix */
  minerNonce: string;
}

/** mining.submit ["user", "jobId", "minernonce"]; minernonce may carry 0x. */
export function parseNicehashSubmit(params: unknown[]): NicehashSubmit | EthError {
  const [user, jobId, nonce] = params;
  if (typeof user !== "string" || user.length > 256) return badParams(NicehashMethod.SUBMIT, "user");
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(NicehashMethod.SUBMIT, "job id");
  const minerNonce = hex(nonce, 16, true);
  if (minerNonce === null || minerNonce === "") return badParams(NicehashMethod.SUBMIT, "nonce");
  return { user, jobId, minerNonce };
}

// ---- pool side ----

export interface Work {
  header: string;
  seed: string;
  boundary: string;
}

/** The ETHPROXY work array ["0xheader", "0xseed", "0xboundary"(, "0xblock")]; null if not one. */
export function parseWork(result: unknown): Work | null {
  if (!Array.isArray(result)) return null;
  const header = hex(result[0], 64);
  const seed = hex(result[1], 64);
  // some pools send a shorter boundary without leading zeros
  const boundary = hex(result[2], 64, true);
  if (header === null || seed === null || boundary === null || boundary === "") return null;
  return { header, seed, boundary: boundary.padStart(64, "0") };
}

export interface Notify {
  jobId: string;
  seed: string;
  header: string;
  clean: boolean;
}

/** mining.notify [jobId, seedHash, headerHash, clean] (hex, 0x tolerated). */
export function parseNotify(params: unknown[]): Notify | EthError {
  const [jobId, seed, header, clean] = params;
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(NicehashMethod.NOTIFY, "job id");
  const s = hex(seed, 64);
  const h = hex(header, 64);
  if (s === null || h === null) return badParams(NicehashMethod.NOTIFY, "hashes");
  return { jobId, seed: s, header: h, clean: clean === true };
}

/** The extranonce prefix of a subscribe answer [[…], "prefix"]; at most MAX_PREFIX_BYTES. */
export function parseSubscribeResult(result: unknown): string | null {
  if (!Array.isArray(result)) return null;
  return hex(result[1] ?? "", MAX_PREFIX_BYTES * 2, true);
}

/** mining.set_extranonce ["prefix"]. */
export function parseSetExtranonce(params: unknown[]): string | null {
  return hex(params[0], MAX_PREFIX_BYTES * 2, true);
}

/** mining.set_difficulty [d]. */
export function parseDifficulty(params: unknown[]): number | null {
  const d = params[0];
  return typeof d === "number" && Number.isFinite(d) && d > 0 ? d : null;
}
