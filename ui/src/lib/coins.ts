/** Coin display rules of spec §2: is_pub filter, fixed order, special labels. */

export interface CurrencyInfo {
  is_pub: number;
  category: string;
  label?: string;
  /** message keys of advisory notes */
  notes?: string[];
  /** the connection modes a port for this coin may use; empty: its mining protocol is not implemented */
  modes?: number[];
  /** false: the coin is relayed as is and fee wallets cannot take work (the server refuses a ratio) */
  fee_supported?: boolean;
  /** what the coin's hashrate counts: "H", "Sol" (Equihash) or "G" (Cuckatoo graphs) */
  hash_unit?: string;
}

/** A coin the server lists but cannot proxy yet (its protocol family is not implemented). */
export const notOffered = (info: CurrencyInfo | undefined): boolean => info?.modes?.length === 0;
/** A coin whose pool protocol is relayed as is: no fee diversion for it. */
export const feeUnavailable = (info: CurrencyInfo | undefined): boolean => info?.fee_supported === false;
/** The unit a coin's hashrate is shown in; hashes until the catalogue has loaded. */
export const hashUnit = (info: CurrencyInfo | undefined): string => info?.hash_unit ?? "H";
export type CurrencyConfig = Record<string, CurrencyInfo>;

export const COIN_ORDER = [
  "NGINX",
  "BTC",
  "FB",
  "ALEO",
  "LTC",
  "DOGE",
  "BCH",
  "BSV",
  "KAS",
  "KAS(ks3)",
  "KASPA",
  "ETC",
  "ETHW",
];

/** Coins with is_pub 1 (or every coin in debug), the fixed head first, then in the server's order. */
export function visibleCoins(config: CurrencyConfig, debug = false): string[] {
  const names = Object.keys(config).filter((c) => debug || config[c]?.is_pub === 1);
  const rank = (c: string) => {
    const i = COIN_ORDER.indexOf(c);
    return i < 0 ? COIN_ORDER.length : i;
  };
  // Array.prototype.sort is stable: coins after the fixed head keep the server's catalogue order.
  return names.sort((a, b) => rank(a) - rank(b));
}

/** Display label; NGINX is translated by the caller (nginxLabel). */
export function coinLabel(coin: string, nginxLabel = "NGINX"): string {
  if (coin === "NGINX") return nginxLabel;
  if (coin === "KAS(ks3)") return "KAS(ks3, ks3l, ks3m)";
  if (coin === "KASPA") return "KAS(GPU)";
  return coin;
}

/** Advisory note keys of a coin (spec §2): from the server's config, falling back to the known ones. */
export function coinNotes(coin: string, info: CurrencyInfo | undefined): string[] {
  if (info?.notes) return info.notes;
  const known: Record<string, string> = {
    BTC: "lang.coin.note.btc_old_models",
    LTC: "lang.coin.note.ltc",
    ALPH: "lang.coin.note.alph",
    RXD: "lang.coin.note.rxd",
    DNX: "lang.coin.note.dnx",
  };
  return known[coin] ? [known[coin]] : [];
}

/** Stable hue for the drawn coin badge. */
export function coinHue(coin: string): number {
  let h = 0;
  for (const ch of coin) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

export function coinInitials(coin: string): string {
  return coin.replace(/[^A-Za-z0-9]/g, "").slice(0, 3) || "?";
}
