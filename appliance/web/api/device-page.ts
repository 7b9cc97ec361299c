import { z } from "zod";
import type { DeviceView } from "../../domain/engine.ts";
import { parseWith } from "../body.ts";

const SORT_KEYS = {
  name: (d: DeviceView) => d.name,
  wallet: (d: DeviceView) => d.wallet,
  ip: (d: DeviceView) => d.ip,
  hashrate: (d: DeviceView) => d.hashrate.current,
  m15: (d: DeviceView) => d.hashrate.m15,
  latency: (d: DeviceView) => d.latencyMs,
  valid: (d: DeviceView) => d.valid,
  invalid: (d: DeviceView) => d.invalid,
  stale: (d: DeviceView) => d.stale,
  loginAt: (d: DeviceView) => d.loginAt,
  lastSubmitAt: (d: DeviceView) => d.lastSubmitAt,
  online: (d: DeviceView) => (d.online ? 1 : 0),
} as const;

const query = z.object({
  limit: z.coerce
    .number("lang.err.params")
    .int("lang.err.params")
    .min(1, "lang.err.params")
    .max(500, "lang.err.params"),
  offset: z.coerce.number("lang.err.params").int("lang.err.params").min(0, "lang.err.params").default(0),
  sort: z.enum(Object.keys(SORT_KEYS) as [keyof typeof SORT_KEYS], "lang.err.params").default("name"),
  order: z.enum(["asc", "desc"], "lang.err.params").default("asc"),
  q: z.string().trim().max(256, "lang.err.params").default(""),
});

export type DeviceSortKey = keyof typeof SORT_KEYS;

/**
 * Rows of a device list carry no connection log: only the device's own answer (/api/stat/worker/{id})
 * does — twenty events per device would add megabytes to a farm's list. The views are made for this
 * answer, so the log is cleared in place (JSON leaves an undefined field out) rather than by copying
 * 10,000 objects, which cost the whole list a few milliseconds of its 50 ms budget.
 */
function withoutLogs(rows: DeviceView[]): DeviceView[] {
  for (const d of rows) d.connectionLog = undefined;
  return rows;
}

/**
 * A page of a port's device list: with `limit`, the devices are filtered by `q` (name, wallet,
 * address or model, case-insensitive), sorted, sliced and answered as {total, items}; without it the whole list, as before. A farm
 * port with 10,000 devices answers 5.7 MB whole and ~60 KB a page (docs/benchmarks.md).
 */
export function devicePage(
  devices: DeviceView[],
  params: URLSearchParams,
): DeviceView[] | { total: number; items: DeviceView[] } {
  if (!params.has("limit")) return withoutLogs(devices);
  const { limit, offset, sort, order, q } = parseWith(query, Object.fromEntries(params));
  const needle = q.toLowerCase();
  const matched = needle
    ? devices.filter(
        (d) =>
          d.name.toLowerCase().includes(needle) ||
          d.wallet.toLowerCase().includes(needle) ||
          d.ip.includes(needle),
      )
    : devices;
  const key = SORT_KEYS[sort];
  const sign = order === "asc" ? 1 : -1;
  matched.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return c * sign;
  });
  return { total: matched.length, items: withoutLogs(matched.slice(offset, offset + limit)) };
}
