/**
 * The coin catalogue (spec §2 "Coin display", §3 "Currency config"): every coin the appliance can proxy,
 * in the fixed display order, with its algorithm category and whether it is offered (is_pub). Coins are
 * data; the protocol family and hashrate factor come from the category (categories.ts).
 */
import { type Category, type FamilyName, familyOf, feeSupported, hashUnitOf, modesOf } from "./categories.ts";

/** Kaspa hardware model groups (spec §2): one coin entry per group so ports can be split by model. */
export type KasModelGroup = "ks0/1/2" | "ks3" | "gpu";

export interface Currency {
  coin: string;
  category: Category;
  /** 1 = offered in the console (spec §2: a coin shows only when is_pub is 1). */
  is_pub: 0 | 1;
  /** Display text, or a message key (starting "lang.") the console translates. */
  label: string;
  /** Message keys of built-in advisory notes shown with the coin (spec §2, pool proxy page). */
  notes: readonly string[];
  modelGroup?: KasModelGroup;
}

/** NGINX is the pure-forward pseudo-coin; the console shows a translated label for it (spec §2). */
export const NGINX_LABEL_KEY = "lang.coin.nginx";

/** Advisory note keys with their English text, for locales/en and for docs. */
export const ADVISORY_NOTES = {
  "lang.coin.note.btc_old_models":
    "Older BTC models that support neither set_extranonce nor version rolling need Old-model optimization (Advanced tab).",
  "lang.coin.note.ltc":
    "Most LTC pools merge-mine DOGE: where the pool asks for both, enter wallets as LTC-address.DOGE-address.",
  "lang.coin.note.alph":
    "Alephium ASICs accept at most one extranonce byte: use a pool that sends at most one.",
  "lang.coin.note.rxd":
    "Pools differ on Radiant's difficulty-1: compare hashrate with the pool's own figures before judging the fee.",
  "lang.coin.note.dnx":
    "Dynex is relayed as is (pass-through, no fee); relay the Mallob endpoint your miners use through an NGINX (pure forward) port.",
} as const;
export type AdvisoryNoteKey = keyof typeof ADVISORY_NOTES;

/** Pool-node coins (spec §9). The VA- and SP- variants exist only for pool-node ports, so is_pub is 0. */
export const POOL_NODE_COINS = [
  "VA-BTC",
  "VA-FB",
  "VA-LTC",
  "VA-DOGE",
  "VA-BELLS",
  "VA-LKY",
  "VA-PEP",
  "VA-JKC",
  "VA-DINGO",
  "KAS",
  "ETC",
] as const;

type Row = readonly [coin: string, category: Category, extra?: Partial<Omit<Currency, "coin" | "category">>];

const hidden = { is_pub: 0 } as const;

/** The fixed order of spec §2: NGINX, BTC, FB, ALEO, then the rest roughly by how much they are mined. */
const ROWS: readonly Row[] = [
  ["NGINX", "nginx", { label: NGINX_LABEL_KEY }],
  ["BTC", "sha256", { notes: ["lang.coin.note.btc_old_models"] }],
  ["FB", "sha256"],
  ["ALEO", "zksnark"],
  ["LTC", "scrypt", { notes: ["lang.coin.note.ltc"] }],
  ["DOGE", "scrypt"],
  ["BCH", "sha256"],
  ["BSV", "sha256"],
  ["KAS", "kheavyhash", { modelGroup: "ks0/1/2" }],
  ["KAS(ks3)", "kheavyhash", { label: "KAS(ks3, ks3l, ks3m)", modelGroup: "ks3" }],
  ["KASPA", "kheavyhash", { label: "KAS(GPU)", modelGroup: "gpu" }],
  ["ETC", "eth1hash"],
  ["ETHW", "ethhash"],
  ["ETHF", "ethhash"],
  ["ZIL", "ethhash2d"],
  ["RVN", "kawpow"],
  ["CLORE", "kawpow"],
  ["NEOX", "kawpow"],
  ["AIPG", "kawpow"],
  ["XNA", "kawpow"],
  ["MEWC", "kawpow2"],
  ["FIRO", "progpow"],
  ["SERO", "progpow"],
  ["ERG", "autoykos2"],
  ["XMR", "randomx"],
  ["ZEPH", "randomx"],
  ["QRL", "randomx"],
  ["SAL", "randomx"],
  ["XTM", "randomx"],
  ["WOW", "randomx"],
  ["ZEC", "equihash"],
  ["ZEN", "equihash"],
  ["FLUX", "equihash"],
  ["BTG", "equihash"],
  ["KMD", "equihash"],
  ["ARRR", "equihash"],
  ["BTCZ", "equihash"],
  ["ZCL", "equihash"],
  ["YEC", "equihash"],
  ["DASH", "x11"],
  ["CKB", "eaglesong"],
  ["ALPH", "blake3", { notes: ["lang.coin.note.alph"] }],
  ["RXD", "sha512256d", { notes: ["lang.coin.note.rxd"] }],
  ["DNX", "dynexsolve", { notes: ["lang.coin.note.dnx"] }],
  ["NEXA", "nexapow"],
  ["KLS", "karlsenhash"],
  ["PYI", "blake3s"],
  ["CFX", "octopus"],
  ["KDA", "blake2s"],
  ["RTM", "ghostrider"],
  ["BTRM", "ghostrider"],
  ["GRIN", "cuckatoo32"],
  ["SC", "blake2b"],
  ["SCP", "blake2b"],
  ["HNS", "blake2b"],
  ["LBC", "lbry"],
  ["XEC", "sha256"],
  ["DGB-SHA256", "sha256"],
  ["DGB-SCRYPT", "scrypt"],
  ["PPC", "sha256"],
  ["NMC", "sha256"],
  ["SYS", "sha256"],
  ["ELA", "sha256"],
  ["HTR", "sha256"],
  ["LCC", "sha256"],
  ["BELLS", "scrypt"],
  ["BEL", "scrypt"],
  ["LKY", "scrypt"],
  ["PEP", "scrypt"],
  ["JKC", "scrypt"],
  ["DINGO", "scrypt"],
  ["SHIC", "scrypt"],
  ["FLO", "scrypt"],
  ["VA-BTC", "sha256", hidden],
  ["VA-FB", "sha256", hidden],
  ["VA-LTC", "scrypt", hidden],
  ["VA-DOGE", "scrypt", hidden],
  ["VA-BELLS", "scrypt", hidden],
  ["VA-LKY", "scrypt", hidden],
  ["VA-PEP", "scrypt", hidden],
  ["VA-JKC", "scrypt", hidden],
  ["VA-DINGO", "scrypt", hidden],
  ["SP-DOGE", "scrypt", hidden],
  ["SP-BELLS", "scrypt", hidden],
  ["SP-LKY", "scrypt", hidden],
  ["SP-PEP", "scrypt", hidden],
  ["SP-JKC", "scrypt", hidden],
  ["SP-DINGO", "scrypt", hidden],
];

export const CURRENCIES: readonly Currency[] = Object.freeze(
  ROWS.map(([coin, category, extra]) =>
    Object.freeze({
      coin,
      category,
      is_pub: extra?.is_pub ?? 1,
      label: extra?.label ?? coin,
      notes: Object.freeze([...(extra?.notes ?? [])]),
      ...(extra?.modelGroup ? { modelGroup: extra.modelGroup } : {}),
    }),
  ),
);

const BY_COIN: ReadonlyMap<string, Currency> = new Map(CURRENCIES.map((c) => [c.coin, c]));

export function findCurrency(coin: string): Currency | undefined {
  return BY_COIN.get(coin);
}

export function isKnownCoin(coin: string): boolean {
  return BY_COIN.has(coin);
}

/** Category of a known coin, undefined for an unknown one (import reports it as unsupported). */
export function categoryOf(coin: string): Category | undefined {
  return BY_COIN.get(coin)?.category;
}

/**
 * What the console shows for a coin (spec §2): KAS(ks3) → "KAS(ks3, ks3l, ks3m)", KASPA → "KAS(GPU)",
 * NGINX → the message key NGINX_LABEL_KEY (translated by the console); unknown coins show as given.
 */
export function displayName(coin: string): string {
  return BY_COIN.get(coin)?.label ?? coin;
}

/** Message keys of the advisory notes for a coin (empty when it has none). */
export function advisoryNotes(coin: string): readonly string[] {
  return BY_COIN.get(coin)?.notes ?? [];
}

export interface CurrencyConfigEntry {
  is_pub: 0 | 1;
  category: Category;
  family: FamilyName;
  /** the proxy modes a port for this coin may use; empty: its protocol is not implemented yet */
  modes: readonly number[];
  /** false: fee wallets with a ratio are refused for this coin (its protocol is relayed as is) */
  fee_supported: boolean;
  /** what its hashrate counts: "H" (hashes), "Sol" (Equihash solutions) or "G" (Cuckatoo graphs) */
  hash_unit: string;
  label: string;
  notes?: readonly string[];
  modelGroup?: KasModelGroup;
}

/**
 * Body of GET /api/currency/config: keyed by coin. Object keys keep insertion order for string keys that
 * are not integers, so the fixed display order survives JSON; the console should still sort by
 * CURRENCIES order rather than rely on it.
 */
export function currencyConfig(): Record<string, CurrencyConfigEntry> {
  const out: Record<string, CurrencyConfigEntry> = {};
  for (const c of CURRENCIES) {
    out[c.coin] = {
      is_pub: c.is_pub,
      category: c.category,
      family: familyOf(c.category),
      modes: modesOf(c.category),
      fee_supported: feeSupported(c.category),
      hash_unit: hashUnitOf(c.category),
      label: c.label,
      ...(c.notes.length > 0 ? { notes: c.notes } : {}),
      ...(c.modelGroup ? { modelGroup: c.modelGroup } : {}),
    };
  }
  return out;
}

const ORDER: ReadonlyMap<string, number> = new Map(CURRENCIES.map((c, i) => [c.coin, i]));

/** The order index of a coin, for sorting coin lists by the fixed display order; unknown coins last. */
export function coinOrder(coin: string): number {
  return ORDER.get(coin) ?? CURRENCIES.length;
}
