/**
 * A port's device list as the API answers it (GET /api/port/{id}/workers): whole, or filtered,
 * sorted and sliced to one page. Run on the engine's thread, where the devices are, so that only
 * the page crosses to the HTTP server's.
 */
import type { DeviceList, DeviceQuery, DeviceSortKey, DeviceView } from "../domain/engine.ts";

const SORT_KEYS: Record<DeviceSortKey, (d: DeviceView) => string | number> = {
  name: (d) => d.name,
  wallet: (d) => d.wallet,
  ip: (d) => d.ip,
  hashrate: (d) => d.hashrate.current,
  m15: (d) => d.hashrate.m15,
  latency: (d) => d.latencyMs,
  valid: (d) => d.valid,
  invalid: (d) => d.invalid,
  stale: (d) => d.stale,
  loginAt: (d) => d.loginAt,
  lastSubmitAt: (d) => d.lastSubmitAt,
  online: (d) => (d.online ? 1 : 0),
};

/**
 * Rows of a device list carry no connection log: only the device's own answer (/api/stat/worker/{id})
 * does — twenty events per device would add megabytes to a farm's list. The views are made for this
 * answer, so the log is cleared in place rather than by copying 10,000 objects.
 */
function withoutLogs(rows: DeviceView[]): DeviceView[] {
  for (const d of rows) d.connectionLog = undefined;
  return rows;
}

/** A farm port with 10,000 devices answers 5.7 MB whole and ~60 KB a page (docs/benchmarks.md). */
export function pageDevices(devices: DeviceView[], query: DeviceQuery | null): DeviceList {
  if (query === null) return withoutLogs(devices);
  const { limit, offset, sort, order, q } = query;
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
