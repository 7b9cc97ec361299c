import type { z } from "zod";
import { ApiError, badRequest } from "./errors.ts";
import type { MessageKey } from "./messages.ts";

/**
 * Body limits, applied while reading (a body past its limit is never buffered whole, let alone
 * parsed): the login page's calls take a few KB from anyone; an admin's JSON is at most a port
 * configuration with its wallets. Uploads (imports, OTA bundles) have their own limits.
 */
export const PUBLIC_BODY_MAX = 4 * 1024;
export const JSON_BODY_MAX = 256 * 1024;

/** The body's bytes, refused with 413 as soon as it is known to exceed `max`. */
export async function readCapped(req: Request, max: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > max) throw new ApiError(413, "lang.err.too_large");
  if (req.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new ApiError(413, "lang.err.too_large");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Deepest nesting of arrays and objects a body may have. The API's deepest body (a port with its
 * wallets) nests 3 levels; 200 KB of "[" nest 100,000, which JSON.parse takes 8–16 ms of the event
 * loop to refuse — while miners' shares wait (bench/api/hostile-latency.ts). Counting is one pass.
 */
export const JSON_MAX_DEPTH = 32;

/** Whether the JSON text nests no deeper than `max` (brackets inside strings do not count). */
export function nestsWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

export async function readJson(req: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readCapped(req, JSON_BODY_MAX));
  if (text.trim() === "") return {};
  if (!nestsWithin(text, JSON_MAX_DEPTH)) throw badRequest("lang.err.bad_json");
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("lang.err.bad_json");
  }
}

/**
 * Validates a body with a zod schema whose issue messages are catalogue keys; the first issue becomes
 * the API error (with the field it concerns).
 */
export async function parseBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  return parseWith(schema, await readJson(req));
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const issue = res.error.issues[0];
  const key = (issue && isKey(issue.message) ? issue.message : "lang.err.params") as MessageKey;
  throw badRequest(key, issue?.path.length ? { field: issue.path.join(".") } : {});
}

function isKey(s: string): boolean {
  return s.startsWith("lang.");
}

export const ok = (body: unknown = { ok: true }) => Response.json(body);
