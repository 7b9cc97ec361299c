import type { z } from "zod";
import { ApiError, badRequest } from "./errors.ts";
import type { MessageKey } from "./messages.ts";

const MAX_BODY = 8 * 1024 * 1024;

export async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > MAX_BODY) throw new ApiError(413, "lang.err.params");
  if (text.trim() === "") return {};
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
