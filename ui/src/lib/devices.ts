/** Device list sorting and search of the port-inside page. DOM-free. */
import type { Device } from "./device-types.ts";

export type DeviceSort = "name" | "wallet" | "hashrate" | "m15" | "latency" | "valid" | "loginAt" | "online";

function value(d: Device, key: DeviceSort): number | string {
  switch (key) {
    case "name":
      return d.name;
    case "wallet":
      return d.wallet;
    case "hashrate":
      return d.hashrate.current;
    case "m15":
      return d.hashrate.m15;
    case "latency":
      return d.latencyMs;
    case "valid":
      return d.valid;
    case "loginAt":
      return d.loginAt;
    case "online":
      return d.online ? 1 : 0;
  }
}

export function sortDevices(list: Device[], key: DeviceSort, asc: boolean): Device[] {
  return [...list].sort((a, b) => {
    const x = value(a, key);
    const y = value(b, key);
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return asc ? c : -c;
  });
}

/** Case-insensitive match on name, wallet, ip and model. */
export function searchDevices(list: Device[], q: string): Device[] {
  const s = q.trim().toLowerCase();
  if (!s) return list;
  return list.filter((d) =>
    [d.name, d.wallet, d.ip, d.agent].some((v) => (v ?? "").toLowerCase().includes(s)),
  );
}

/** Wallet-scope favourites first (spec: favourites), keeping order otherwise. */
export function favouritesFirst<T extends { wallet: string }>(list: T[], fav: Set<string>): T[] {
  return [...list].sort((a, b) => Number(fav.has(b.wallet)) - Number(fav.has(a.wallet)));
}
