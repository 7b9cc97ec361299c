/** Preset pools and wallets (spec §3): one end-point settings object holds both custom lists. */
import { get, post } from "./api.ts";

export interface CustomPool {
  coin: string;
  name: string;
  address: string;
  /** 0 TCP, 1 SSL */
  deal: 0 | 1;
}
export interface CustomWallet {
  name: string;
  address: string;
  protocol: 0 | 1;
}
export interface EndpointSettings {
  customPool: CustomPool[];
  customWallet: CustomWallet[];
  [key: string]: unknown;
}
export interface BuiltinPool {
  brand: string;
  content: string;
  url: string;
  protocol: number;
}

export async function loadEndpoint(): Promise<EndpointSettings> {
  const r = await get<Partial<EndpointSettings> | null>("/api/local/pool/endpoint");
  return { ...(r ?? {}), customPool: r?.customPool ?? [], customWallet: r?.customWallet ?? [] };
}

/** Posts the whole object, as the spec says every add or delete does. */
export const saveEndpoint = (s: EndpointSettings) => post("/api/local/pool/endpoint", s);

export async function loadBuiltinPools(): Promise<BuiltinPool[]> {
  const r = await get<BuiltinPool[] | { items: BuiltinPool[] }>("/api/pool/info/1");
  return Array.isArray(r) ? r : (r?.items ?? []);
}

export const poolsOfCoin = <T extends { coin?: string; brand?: string }>(list: T[], coin: string) =>
  list.filter((p) => (p.coin ?? p.brand) === coin);

/** Pool address with scheme removed, and the connect mode for a preset's protocol. */
export function presetToPool(address: string, deal: number): { addr: string; mode: number } {
  const ssl = deal === 1 || /^(ssl|stratum\+ssl|tls):\/\//i.test(address);
  return { addr: address.replace(/^[a-z0-9+]+:\/\//i, ""), mode: ssl ? 1 : 0 };
}
