/**
 * One hand-written parser per CryptoNote message (xmrig's protocol uses named params). Parsers
 * return the message or a CnError; nothing here throws.
 */
import { LineCache } from "../intern.ts";
import { CnError, Errors } from "./errors.ts";
import { isSplittable, poolByte } from "./nonce.ts";
import { difficultyOfTarget } from "./target.ts";

export interface Login {
  login: string;
  pass: string;
  agent: string;
  rigid: string | null;
  algos: readonly string[] | null;
}

export interface Submit {
  rpcId: string;
  jobId: string;
  /** 8 hex digits, lower case */
  nonce: string;
  /** 64 hex digits, lower case */
  result: string;
  algo: string | null;
}

/** A job as a pool sent it, with what the proxy derives from it once. */
export interface PoolJob {
  jobId: string;
  blob: string;
  target: string;
  algo: string | null;
  height: number | null;
  seedHash: string;
  difficulty: number;
  /** blob[42] is free for the proxy to set (nonce.ts) */
  splittable: boolean;
  /** the pool's blob[42], kept when the job cannot be split */
  fixedByte: number;
  /** the next blob[42] value to hand out on this job (each value goes to one miner once) */
  nextByte: number;
}

export interface LoginResult {
  rpcId: string;
  job: PoolJob;
  extensions: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const HEX = /^[0-9a-fA-F]*$/;
const MAX_FIELD = 512;

/**
 * A login's algorithm list, shared with the logins that sent the same: a farm's miners send one or a
 * few, and in Efficient mode each miner's pool session keeps its login. Never modified after login.
 */
const algoLists = new LineCache<readonly string[]>(64);

function sameAlgos(algos: readonly string[]): readonly string[] {
  const key = algos.join("\n");
  const known = algoLists.get(key);
  if (known !== undefined) return known;
  algoLists.set(key, algos);
  return algos;
}

export function parseLogin(params: unknown): Login | CnError {
  if (!isObj(params)) return Errors.malformed("login params must be an object");
  const login = str(params.login);
  if (login === null || login.length === 0 || login.length > MAX_FIELD)
    return Errors.malformed("missing login");
  const rigid = str(params.rigid);
  const algos = Array.isArray(params.algo)
    ? sameAlgos(params.algo.filter((a): a is string => typeof a === "string" && a.length < 64).slice(0, 32))
    : null;
  return {
    login,
    pass: (str(params.pass) ?? "x").slice(0, MAX_FIELD),
    agent: (str(params.agent) ?? "").slice(0, 256),
    rigid: rigid === null || rigid.length === 0 ? null : rigid.slice(0, 128),
    algos,
  };
}

export function parseSubmit(params: unknown): Submit | CnError {
  if (!isObj(params)) return Errors.malformed("submit params must be an object");
  const rpcId = str(params.id);
  const jobId = str(params.job_id);
  const nonce = str(params.nonce);
  const result = str(params.result);
  if (rpcId === null || jobId === null || nonce === null || result === null)
    return Errors.malformed("missing submit field");
  if (nonce.length !== 8 || !HEX.test(nonce)) return new CnError("Invalid nonce: 8 hex digits expected");
  if (result.length !== 64 || !HEX.test(result)) return new CnError("Invalid result: 64 hex digits expected");
  return {
    rpcId,
    jobId,
    nonce: nonce.toLowerCase(),
    result: result.toLowerCase(),
    algo: str(params.algo),
  };
}

/** The rpc id a keepalived or getjob names. */
export const parseRpcId = (params: unknown): string | null => (isObj(params) ? str(params.id) : null);

export function parsePoolJob(params: unknown): PoolJob | CnError {
  if (!isObj(params)) return Errors.malformed("job must be an object");
  const blob = str(params.blob);
  const jobId = str(params.job_id);
  const target = str(params.target);
  const seed = str(params.seed_hash);
  if (blob === null || jobId === null || target === null)
    return Errors.malformed("job without blob, id or target");
  if (blob.length % 2 !== 0 || blob.length > 1024 || !HEX.test(blob))
    return Errors.malformed("job blob is not hex");
  // RandomX needs its key; a CryptoNight job (no seed) is not this family's.
  if (seed === null || seed.length !== 64 || !HEX.test(seed))
    return Errors.malformed("job without seed_hash");
  const difficulty = difficultyOfTarget(target);
  if (difficulty === null) return Errors.malformed("job target is not 4 or 8 bytes of hex");
  const lower = blob.toLowerCase();
  return {
    jobId,
    blob: lower,
    target,
    algo: str(params.algo),
    height: typeof params.height === "number" ? params.height : null,
    seedHash: seed.toLowerCase(),
    difficulty,
    splittable: isSplittable(lower),
    fixedByte: lower.length >= 86 ? poolByte(lower) : 0,
    nextByte: 0,
  };
}

export function parseLoginResult(result: unknown): LoginResult | CnError {
  if (!isObj(result)) return Errors.malformed("login result must be an object");
  const rpcId = str(result.id);
  if (rpcId === null) return Errors.malformed("login result without id");
  const job = parsePoolJob(result.job);
  if (job instanceof CnError) return job;
  const extensions = Array.isArray(result.extensions)
    ? result.extensions.filter((e): e is string => typeof e === "string")
    : [];
  return { rpcId, job, extensions };
}

/** The job params a miner is sent: the pool's, with the miner's blob and the proxy's job id. */
export const jobParams = (job: PoolJob, jobId: string, blob: string): Obj => ({
  blob,
  job_id: jobId,
  ...poolFields(job),
});

/** The job params after the job id, as the pool sent them. */
export function poolFields(job: PoolJob): Obj {
  const p: Obj = { target: job.target };
  if (job.algo !== null) p.algo = job.algo;
  if (job.height !== null) p.height = job.height;
  p.seed_hash = job.seedHash;
  return p;
}
