import { z } from "zod";
import { DEVICE_SORT_KEYS, type DeviceQuery } from "../../domain/engine.ts";
import { parseWith } from "../body.ts";

const query = z.object({
  limit: z.coerce
    .number("lang.err.params")
    .int("lang.err.params")
    .min(1, "lang.err.params")
    .max(500, "lang.err.params"),
  offset: z.coerce.number("lang.err.params").int("lang.err.params").min(0, "lang.err.params").default(0),
  sort: z.enum(DEVICE_SORT_KEYS, "lang.err.params").default("name"),
  order: z.enum(["asc", "desc"], "lang.err.params").default("asc"),
  q: z.string().trim().max(256, "lang.err.params").default(""),
});

/**
 * The page a device-list request asks for: with `limit`, a page (filtered by `q`, sorted, sliced:
 * stats/device-page.ts); without it null, the whole list, as before.
 */
export function deviceQuery(params: URLSearchParams): DeviceQuery | null {
  if (!params.has("limit")) return null;
  return parseWith(query, Object.fromEntries(params));
}
