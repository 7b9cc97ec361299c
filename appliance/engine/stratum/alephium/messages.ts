/**
 * One hand-written parser per Alephium stratum message (protocols.md §E), miner side and pool side.
 * Each returns the typed value (hex lower-case) or an AlphError / null; none throws.
 */
import type { StratumParams } from "../message.ts";
import { AlphError, AlphErrorCode } from "./errors.ts";
import { GROUPS, NONCE_BYTES } from "./methods.ts";

const HEX = /^[0-9a-fA-F]*$/;
const bad = (what: string): AlphError => new AlphError(AlphErrorCode.OTHER, `invalid params: ${what}`);
const isGroup = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v < GROUPS;
/** Job ids are hex strings at the reference pool; a number is taken as its text. */
const idText = (v: unknown): string | null =>
  typeof v === "string" && v.length > 0 && v.length <= 64 ? v : typeof v === "number" ? String(v) : null;

// ---- miner side ----

export interface Login {
  user: string;
  password: string;
}

/** mining.authorize ["wallet(.worker)", "password"?]. */
export function parseAuthorize(params: StratumParams): Login | AlphError {
  if (!Array.isArray(params)) return bad("authorize takes [user, password]");
  const [user, password] = params;
  if (typeof user !== "string" || user.length === 0 || user.length > 256) return bad("user");
  if (password !== undefined && password !== null && typeof password !== "string") return bad("password");
  return { user, password: typeof password === "string" ? password.slice(0, 256) : "x" };
}

/** mining.subscribe ["agent", …]: the agent, or "" (the reference pool ignores the params). */
export function parseSubscribe(params: StratumParams): string {
  const agent = Array.isArray(params) ? params[0] : undefined;
  return typeof agent === "string" ? agent.slice(0, 128) : "";
}

export interface Submit {
  jobId: string;
  fromGroup: number;
  toGroup: number;
  /** 48 hex digits, lower-case */
  nonce: string;
}

/** mining.submit {jobId, fromGroup, toGroup, nonce: "<24-byte hex>", worker}: the worker is the proxy's to set. */
export function parseSubmit(params: StratumParams): Submit | AlphError {
  if (Array.isArray(params)) return bad("submit takes an object");
  const jobId = idText(params.jobId);
  if (jobId === null) return bad("jobId");
  if (!isGroup(params.fromGroup) || !isGroup(params.toGroup)) return bad("chain index");
  const nonce = params.nonce;
  if (typeof nonce !== "string" || nonce.length !== NONCE_BYTES * 2 || !HEX.test(nonce))
    return new AlphError(AlphErrorCode.INVALID_NONCE, "invalid nonce");
  return { jobId, fromGroup: params.fromGroup, toGroup: params.toGroup, nonce: nonce.toLowerCase() };
}

// ---- pool side ----

/** One block template of a notify. */
export interface PoolJob {
  poolJobId: string;
  fromGroup: number;
  toGroup: number;
  /**
   * The pool's object as JSON after the value of its jobId, which the proxy replaces:
   * `","fromGroup":…}`. Every other field, unknown ones too, passes to miners unchanged, and a
   * miner's notify is joined from it instead of copying and stringifying the object for every
   * miner (job.ts).
   */
  afterId: string;
}

/** mining.notify [{jobId, fromGroup, toGroup, headerBlob, txsBlob, targetBlob, height}, …]. */
export function parseNotify(params: StratumParams): PoolJob[] | null {
  if (!Array.isArray(params) || params.length === 0 || params.length > GROUPS * GROUPS) return null;
  const jobs: PoolJob[] = [];
  for (const p of params) {
    if (p === null || typeof p !== "object" || Array.isArray(p)) return null;
    const o = p as Record<string, unknown>;
    const poolJobId = idText(o.jobId);
    if (poolJobId === null || !isGroup(o.fromGroup) || !isGroup(o.toGroup)) return null;
    if (typeof o.headerBlob !== "string" || !HEX.test(o.headerBlob)) return null;
    const { jobId: _poolId, ...others } = o;
    const afterId = `",${JSON.stringify(others).slice(1)}`;
    jobs.push({ poolJobId, fromGroup: o.fromGroup, toGroup: o.toGroup, afterId });
  }
  return jobs;
}

/** mining.set_difficulty [d]. */
export function parseDifficulty(params: StratumParams): number | null {
  const d = Array.isArray(params) ? params[0] : undefined;
  return typeof d === "number" && Number.isFinite(d) && d > 0 ? d : null;
}

/** mining.set_extranonce ["<hex>"]. */
export function parseSetExtranonce(params: StratumParams): string | null {
  const e = Array.isArray(params) ? params[0] : undefined;
  if (typeof e !== "string" || e.length % 2 !== 0 || e.length >= NONCE_BYTES * 2 || !HEX.test(e)) return null;
  return e.toLowerCase();
}
