/**
 * One hand-written tuple parser per Bitcoin-family method (protocols.md §A). Each returns the typed
 * value or a StratumError; none throws.
 */
import { badParams, type StratumError } from "./errors.ts";
import { Method } from "./methods.ts";

const HEX = /^[0-9a-fA-F]*$/;
const isHex = (v: unknown, bytes?: number): v is string =>
  typeof v === "string" &&
  v.length % 2 === 0 &&
  HEX.test(v) &&
  (bytes === undefined || v.length === bytes * 2);

export interface Subscribe {
  agent: string;
  sessionId: string | null;
}
export function parseSubscribe(params: unknown[]): Subscribe | StratumError {
  const agent = params[0];
  const session = params[1];
  if (agent !== undefined && agent !== null && typeof agent !== "string")
    return badParams(Method.SUBSCRIBE, "agent");
  return {
    agent: typeof agent === "string" ? agent.slice(0, 128) : "",
    sessionId: typeof session === "string" && session.length <= 64 ? session : null,
  };
}

export interface Authorize {
  user: string;
  password: string;
}
export function parseAuthorize(params: unknown[]): Authorize | StratumError {
  const [user, password] = params;
  if (typeof user !== "string" || user.length === 0 || user.length > 256)
    return badParams(Method.AUTHORIZE, "user");
  if (password !== undefined && password !== null && typeof password !== "string")
    return badParams(Method.AUTHORIZE, "password");
  return { user, password: typeof password === "string" ? password.slice(0, 256) : "" };
}

export interface Submit {
  worker: string;
  jobId: string;
  extranonce2: string;
  ntime: string;
  nonce: string;
  /** BIP310 rolled bits, or null when the miner does not roll. */
  versionBits: string | null;
}
export function parseSubmit(params: unknown[]): Submit | StratumError {
  const [worker, jobId, extranonce2, ntime, nonce, versionBits] = params;
  if (typeof worker !== "string" || worker.length > 256) return badParams(Method.SUBMIT, "worker");
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(Method.SUBMIT, "job id");
  if (!isHex(extranonce2) || extranonce2.length > 64) return badParams(Method.SUBMIT, "extranonce2");
  if (!isHex(ntime, 4)) return badParams(Method.SUBMIT, "ntime");
  if (!isHex(nonce, 4)) return badParams(Method.SUBMIT, "nonce");
  if (versionBits !== undefined && versionBits !== null && !isHex(versionBits, 4))
    return badParams(Method.SUBMIT, "version bits");
  return {
    worker,
    jobId,
    extranonce2: extranonce2.toLowerCase(),
    ntime: ntime.toLowerCase(),
    nonce: nonce.toLowerCase(),
    versionBits: typeof versionBits === "string" ? versionBits.toLowerCase() : null,
  };
}

export interface Configure {
  extensions: string[];
  /** The miner's requested version-rolling mask, null if it did not ask for version rolling. */
  versionRollingMask: number | null;
  minBitCount: number;
}
export function parseConfigure(params: unknown[]): Configure | StratumError {
  const [extensions, options] = params;
  if (!Array.isArray(extensions) || !extensions.every((e) => typeof e === "string"))
    return badParams(Method.CONFIGURE, "extensions");
  const opts = options !== null && typeof options === "object" ? (options as Record<string, unknown>) : {};
  let mask: number | null = null;
  if (extensions.includes("version-rolling")) {
    const m = opts["version-rolling.mask"];
    mask = isHex(m, 4) ? Number.parseInt(m, 16) >>> 0 : 0xffffffff;
  }
  const min = opts["version-rolling.min-bit-count"];
  return {
    extensions: extensions as string[],
    versionRollingMask: mask,
    minBitCount: typeof min === "number" ? min : 0,
  };
}

export function parseDifficulty(method: string, params: unknown[]): number | StratumError {
  const d = params[0];
  const n = typeof d === "string" ? Number(d) : d;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) return badParams(method, "difficulty");
  return n;
}

export interface Notify {
  jobId: string;
  prevHash: string;
  coinb1: string;
  coinb2: string;
  merkleBranch: string[];
  version: string;
  nbits: string;
  ntime: string;
  cleanJobs: boolean;
}
export function parseNotify(params: unknown[]): Notify | StratumError {
  const [jobId, prevHash, coinb1, coinb2, branch, version, nbits, ntime, clean] = params;
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(Method.NOTIFY, "job id");
  if (!isHex(prevHash, 32)) return badParams(Method.NOTIFY, "prevhash");
  if (!isHex(coinb1) || !isHex(coinb2)) return badParams(Method.NOTIFY, "coinbase");
  if (!Array.isArray(branch) || !branch.every((b) => isHex(b, 32)))
    return badParams(Method.NOTIFY, "merkle branch");
  if (!isHex(version, 4) || !isHex(nbits, 4) || !isHex(ntime, 4))
    return badParams(Method.NOTIFY, "version/nbits/ntime");
  return {
    jobId,
    prevHash: prevHash.toLowerCase(),
    coinb1: coinb1.toLowerCase(),
    coinb2: coinb2.toLowerCase(),
    merkleBranch: branch as string[],
    version: version.toLowerCase(),
    nbits: nbits.toLowerCase(),
    ntime: ntime.toLowerCase(),
    cleanJobs: clean === true,
  };
}

export interface SubscribeResult {
  extranonce1: string;
  extranonce2Size: number;
  sessionId: string | null;
}
export function parseSubscribeResult(result: unknown): SubscribeResult | StratumError {
  if (!Array.isArray(result)) return badParams(Method.SUBSCRIBE, "result");
  const [subs, en1, en2size] = result;
  if (!isHex(en1) || en1.length > 32) return badParams(Method.SUBSCRIBE, "extranonce1");
  if (typeof en2size !== "number" || !Number.isInteger(en2size) || en2size < 0 || en2size > 16)
    return badParams(Method.SUBSCRIBE, "extranonce2 size");
  let sessionId: string | null = null;
  if (Array.isArray(subs)) {
    for (const s of subs) {
      if (Array.isArray(s) && s[0] === Method.NOTIFY && typeof s[1] === "string") sessionId = s[1];
    }
  }
  return { extranonce1: en1.toLowerCase(), extranonce2Size: en2size, sessionId };
}

export interface ConfigureResult {
  versionRolling: boolean;
  mask: number;
}
export function parseConfigureResult(result: unknown): ConfigureResult {
  if (result === null || typeof result !== "object") return { versionRolling: false, mask: 0 };
  const o = result as Record<string, unknown>;
  const mask = o["version-rolling.mask"];
  const on = o["version-rolling"] === true && isHex(mask, 4);
  return { versionRolling: on, mask: on ? Number.parseInt(mask as string, 16) >>> 0 : 0 };
}

export interface SetExtranonce {
  extranonce1: string;
  extranonce2Size: number | null;
}
export function parseSetExtranonce(params: unknown[]): SetExtranonce | StratumError {
  const [en1, size] = params;
  if (!isHex(en1) || en1.length > 32) return badParams(Method.SET_EXTRANONCE, "extranonce1");
  if (size !== undefined && (typeof size !== "number" || !Number.isInteger(size) || size < 0 || size > 16))
    return badParams(Method.SET_EXTRANONCE, "extranonce2 size");
  return { extranonce1: en1.toLowerCase(), extranonce2Size: typeof size === "number" ? size : null };
}

export function parseVersionMask(params: unknown[]): number | StratumError {
  const m = params[0];
  if (!isHex(m, 4)) return badParams(Method.SET_VERSION_MASK, "mask");
  return Number.parseInt(m, 16) >>> 0;
}

export interface Reconnect {
  host: string | null;
  port: number | null;
  waitSeconds: number;
}
export function parseReconnect(params: unknown[]): Reconnect | StratumError {
  const [host, port, wait] = params;
  if (host !== undefined && host !== null && typeof host !== "string")
    return badParams(Method.RECONNECT, "host");
  const p = typeof port === "string" ? Number(port) : port;
  if (p !== undefined && p !== null && (typeof p !== "number" || !Number.isInteger(p) || p < 1 || p > 65535))
    return badParams(Method.RECONNECT, "port");
  const w = typeof wait === "string" ? Number(wait) : wait;
  return {
    host: typeof host === "string" && host.length > 0 ? host : null,
    port: typeof p === "number" ? p : null,
    waitSeconds: typeof w === "number" && Number.isFinite(w) && w >= 0 ? Math.min(w, 3600) : 0,
  };
}

export const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, "0");
