/**
 * The CryptoNote stratum methods (xmrig's protocol, protocols.md §C) with one hand-written parser per
 * message. Parsers return the message or a short reason string; the pool turns reasons into errors.
 */
import { isRecord } from "./json-lines.ts";

export const Method = {
  /** miner → pool: {login, pass, agent, rigid?, algo?}; the result carries the first job */
  LOGIN: "login",
  /** pool → miner notification: a new job */
  JOB: "job",
  /** miner → pool: {id, job_id, nonce, result, algo?} */
  SUBMIT: "submit",
  /** miner → pool: {id}; answered {status: "KEEPALIVED"} */
  KEEPALIVED: "keepalived",
  /** miner → pool: {id}; answered with the current job */
  GETJOB: "getjob",
} as const;

export const ALGO_RX0 = "rx/0";

export interface Login {
  login: string;
  pass: string;
  agent: string;
  rigid: string | null;
  algos: string[];
}

export interface JobParams {
  blob: string;
  job_id: string;
  target: string;
  algo: string;
  height: number;
  seed_hash: string;
}

export interface Submit {
  rpcId: string;
  jobId: string;
  nonce: string;
  result: string;
}

export interface LoginResult {
  id: string;
  job: JobParams;
  extensions: string[];
  status: string;
}

const HEX = /^[0-9a-fA-F]*$/;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function parseLogin(params: unknown): Login | string {
  if (!isRecord(params)) return "login params must be an object";
  const login = str(params.login);
  if (login === null || login.length === 0) return "Missing login";
  const algos = Array.isArray(params.algo)
    ? params.algo.filter((a): a is string => typeof a === "string")
    : [];
  return {
    login,
    pass: str(params.pass) ?? "",
    agent: str(params.agent) ?? "",
    rigid: str(params.rigid),
    algos,
  };
}

export function parseSubmit(params: unknown): Submit | string {
  if (!isRecord(params)) return "submit params must be an object";
  const rpcId = str(params.id);
  const jobId = str(params.job_id);
  const nonce = str(params.nonce);
  const result = str(params.result);
  if (rpcId === null || jobId === null || nonce === null || result === null) return "missing submit field";
  if (nonce.length !== 8 || !HEX.test(nonce)) return "nonce must be 8 hex digits";
  if (result.length !== 64 || !HEX.test(result)) return "result must be 64 hex digits";
  return { rpcId, jobId, nonce: nonce.toLowerCase(), result: result.toLowerCase() };
}

/** The id a keepalived or getjob request names. */
export function parseRpcIdParam(params: unknown): string | null {
  return isRecord(params) ? str(params.id) : null;
}

export function parseJob(params: unknown): JobParams | string {
  if (!isRecord(params)) return "job params must be an object";
  const blob = str(params.blob);
  const jobId = str(params.job_id);
  const target = str(params.target);
  const seed = str(params.seed_hash);
  if (blob === null || jobId === null || target === null || seed === null) return "missing job field";
  if (!HEX.test(blob) || blob.length % 2 !== 0) return "blob must be hex";
  if (!HEX.test(seed) || seed.length !== 64) return "seed_hash must be 32 bytes of hex";
  return {
    blob,
    job_id: jobId,
    target,
    algo: str(params.algo) ?? ALGO_RX0,
    height: typeof params.height === "number" ? params.height : 0,
    seed_hash: seed,
  };
}

export function parseLoginResult(result: unknown): LoginResult | string {
  if (!isRecord(result)) return "login result must be an object";
  const id = str(result.id);
  if (id === null) return "login result without id";
  const job = parseJob(result.job);
  if (typeof job === "string") return job;
  const extensions = Array.isArray(result.extensions)
    ? result.extensions.filter((e): e is string => typeof e === "string")
    : [];
  return { id, job, extensions, status: str(result.status) ?? "" };
}
