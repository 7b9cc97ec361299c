/** Port list logic of the pool page (spec §3 defaults: by port, ascending, 30 per page). DOM-free. */
import type { PortItem } from "./port-types.ts";

export type SortKey = "port" | "name" | "online" | "delay" | "state";
export type Dir = "ascending" | "descending";

function keyOf(item: PortItem, key: SortKey): number | string {
  switch (key) {
    case "port":
      return item.server.port;
    case "name":
      return item.server.name ?? "";
    case "online":
      return item.stat?.online ?? 0;
    case "delay":
      return item.stat?.delay ?? 0;
    case "state":
      return item.state;
  }
}

export function sortPorts(items: PortItem[], key: SortKey, dir: Dir): PortItem[] {
  const sign = dir === "ascending" ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = keyOf(a, key);
    const y = keyOf(b, key);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return c * sign || a.server.port - b.server.port;
  });
}

export function paginate<T>(
  items: T[],
  page: number,
  size: number,
): { rows: T[]; pages: number; page: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(1, page), pages);
  return { rows: items.slice((p - 1) * size, p * size), pages, page: p };
}

export interface CoinCount {
  coin: string;
  ports: number;
  online: number;
}

/** Ports and online devices per coin, for the coin list and its filters. */
export function coinCounts(items: PortItem[], coins: string[]): CoinCount[] {
  return coins.map((coin) => {
    const mine = items.filter((i) => i.server.currency === coin);
    return { coin, ports: mine.length, online: mine.reduce((a, i) => a + (i.stat?.online ?? 0), 0) };
  });
}

export function filterCoins(counts: CoinCount[], hideNoProxy: boolean, hideNoActivity: boolean): CoinCount[] {
  return counts.filter((c) => (!hideNoProxy || c.ports > 0) && (!hideNoActivity || c.online > 0));
}

/** Runs one call per id in sequence and counts successes and failures (spec §4 batch operations). */
export async function runBatch(
  ids: number[],
  call: (id: number) => Promise<unknown>,
): Promise<{ ok: number; fail: number }> {
  let ok = 0;
  let fail = 0;
  for (const id of ids) {
    try {
      await call(id);
      ok++;
    } catch {
      fail++;
    }
  }
  return { ok, fail };
}

export interface CoinActivity {
  coin: string;
  ports: number;
  online: number;
  /** average latency (ms) of the coin's ports that report one */
  delay: number;
}

/** Coin activity ranking: online devices descending, then ports. */
export function coinActivity(items: PortItem[]): CoinActivity[] {
  const by = new Map<string, PortItem[]>();
  for (const i of items) by.set(i.server.currency, [...(by.get(i.server.currency) ?? []), i]);
  return [...by.entries()]
    .map(([coin, list]) => {
      const delays = list.map((i) => i.stat?.delay ?? 0).filter((d) => d > 0);
      return {
        coin,
        ports: list.length,
        online: list.reduce((a, i) => a + (i.stat?.online ?? 0), 0),
        delay: delays.length ? Math.round(delays.reduce((a, d) => a + d, 0) / delays.length) : 0,
      };
    })
    .sort((a, b) => b.online - a.online || b.ports - a.ports || a.coin.localeCompare(b.coin));
}
