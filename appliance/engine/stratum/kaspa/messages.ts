/**
 * One hand-written parser per Kaspa stratum method (protocols.md §D), miner side and pool side.
 * Each returns the typed value (hex lower-case, without 0x) or an EthError (the error shape Kaspa
 * shares with EthereumStratum/1.0.0); none throws. Authorize, set_extranonce and set_difficulty
 * are the Ethereum family's parsers: the same tuples.
 */
import type { LinePart } from "../../transport/joined-line.ts";
import { badParams, type EthError } from "../ethereum/errors.ts";
import { KaspaMethod, MAX_POOL_PREFIX_BYTES, NONCE_HEX } from "./methods.ts";
import { fromLeHex, prePowFromWords } from "./work.ts";

export { parseDifficulty, parseLogin, parseSetExtranonce } from "../ethereum/messages.ts";

const HEX = /^[0-9a-f]*$/;

const stripHex = (v: unknown): string | null => {
  if (typeof v !== "string") return null;
  const s = (v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v).toLowerCase();
  return HEX.test(s) ? s : null;
};

// ---- miner side ----

/** mining.subscribe ["agent"(, "EthereumStratum/1.0.0")]: the agent. */
export function parseSubscribe(params: unknown[]): string | EthError {
  const agent = params[0];
  if (agent !== undefined && agent !== null && typeof agent !== "string")
    return badParams(KaspaMethod.SUBSCRIBE, "agent");
  return typeof agent === "string" ? agent.slice(0, 128) : "";
}

export interface Submit {
  user: string;
  jobId: string;
  /** the nonce as sent, 1–16 hex digits: the full u64, or only the part after the prefix */
  nonce: string;
}

/** mining.submit ["user", "jobId", "nonce hex (0x optional)"]. */
export function parseSubmit(params: unknown[]): Submit | EthError {
  const [user, jobId, nonce] = params;
  if (typeof user !== "string" || user.length > 256) return badParams(KaspaMethod.SUBMIT, "user");
  const id = typeof jobId === "number" && Number.isSafeInteger(jobId) ? String(jobId) : jobId;
  if (typeof id !== "string" || id.length === 0 || id.length > 64)
    return badParams(KaspaMethod.SUBMIT, "job id");
  const n = stripHex(nonce);
  if (n === null || n.length === 0 || n.length > NONCE_HEX) return badParams(KaspaMethod.SUBMIT, "nonce");
  return { user, jobId: id, nonce: n };
}

// ---- pool side ----

/**
 * A notify as parsed, shared by every session given the same line (upstream.ts): never changed
 * once made, except for its params text in each form, made on first use (job.ts).
 */
export interface Notify {
  jobId: string;
  /** 64 hex digits */
  prePow: string;
  timestamp: bigint;
  /** the line after the job id, params `[w0,w1,w2,w3],timestamp` (kaspa/job.ts) */
  u64Rest: LinePart | null;
  /** the line after the job id, params `"prePow ‖ timestamp LE"` (kaspa/job.ts) */
  hexRest: LinePart | null;
}

/**
 * The u64 array form's numbers, read from the line's text: `[w0,w1,w2,w3],timestamp` is the only
 * array of four integers followed by an integer in a notify line.
 */
const U64_FORM =
  /\[\s*(\d{1,20})\s*,\s*(\d{1,20})\s*,\s*(\d{1,20})\s*,\s*(\d{1,20})\s*\]\s*,\s*(\d{1,20})\s*[\],]/;

/**
 * mining.notify in either form: ["jobId", [u64 ×4], timestamp] or ["jobId", "<80 hex>"] (pre-PoW
 * hash ‖ timestamp as a little-endian u64). `params` is the parsed envelope, used for the shape and
 * the job id; the big numbers come from `line`, never from JSON.parse.
 */
export function parseNotify(line: string, params: unknown[]): Notify | EthError {
  const raw = params[0];
  const jobId = typeof raw === "number" && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64)
    return badParams(KaspaMethod.NOTIFY, "job id");
  const second = params[1];
  if (typeof second === "string") {
    const h = stripHex(second);
    if (h === null || h.length !== 80) return badParams(KaspaMethod.NOTIFY, "header hex");
    return {
      jobId,
      prePow: h.slice(0, 64),
      timestamp: fromLeHex(h.slice(64)),
      u64Rest: null,
      hexRest: null,
    };
  }
  if (!Array.isArray(second) || second.length !== 4 || typeof params[2] !== "number")
    return badParams(KaspaMethod.NOTIFY, "shape");
  const m = U64_FORM.exec(line);
  if (m === null) return badParams(KaspaMethod.NOTIFY, "pre-pow words");
  const prePow = prePowFromWords(m.slice(1, 5) as string[]);
  const timestamp = BigInt(m[5] as string);
  if (prePow === null || timestamp >= 1n << 64n) return badParams(KaspaMethod.NOTIFY, "u64 out of range");
  return { jobId, prePow, timestamp, u64Rest: null, hexRest: null };
}

/**
 * The extranonce in a subscribe answer, if it carries one: bridges answer most miners
 * [true, "EthereumStratum/1.0.0"] and give the prefix later in mining.set_extranonce; Bitmain's
 * shape is [null, "prefix", size], ES1's [[…], "prefix"]. null when the answer is no subscribe answer.
 */
export function parseSubscribeResult(result: unknown): { extranonce: string } | null {
  if (result === true) return { extranonce: "" };
  if (!Array.isArray(result) || result.length < 2) return null;
  if (result[0] === true) return { extranonce: "" };
  const e = stripHex(result[1]);
  if (e === null || e.length % 2 !== 0 || e.length > MAX_POOL_PREFIX_BYTES * 2) return null;
  return { extranonce: e };
}
