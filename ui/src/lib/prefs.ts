/** Browser preferences of spec §3, kept as one JSON object in localStorage. */
import { createStore } from "./store.ts";

export type Language = "en" | "zh-CN" | "ru";
export type Theme = "dark" | "light";
export type SortDir = "ascending" | "descending";

export interface Prefs {
  language: Language;
  theme: Theme;
  chart3select: string;
  defaultAves1: number;
  defaultAves2: number;
  hideDeProxyCoin: boolean;
  hideActiveCoin: boolean;
  hideLeftCard: boolean;
  walletPage: boolean;
  foundIndex: number;
  poolID: string;
  listTab: number;
  portListActiveSort: string;
  portListPageSie: number;
  portListSortDir: SortDir;
  loginfo: string;
  memory: string;
  favourites: string[];
}

export const DEFAULT_PREFS: Prefs = {
  language: "en",
  theme: "dark",
  chart3select: "BTC",
  defaultAves1: 900,
  defaultAves2: 86400,
  hideDeProxyCoin: false,
  hideActiveCoin: false,
  hideLeftCard: false,
  walletPage: false,
  foundIndex: 0,
  poolID: "",
  listTab: 0,
  portListActiveSort: "port",
  portListPageSie: 30,
  portListSortDir: "ascending",
  loginfo: "",
  memory: "",
  favourites: [],
};

export const PREFS_KEY = "pithead.prefs";
export const TOKEN_KEY = "pithead.token";

/** Merges stored JSON over the defaults, keeping only known keys of the right type. */
export function parsePrefs(raw: string | null): Prefs {
  const out: Prefs = { ...DEFAULT_PREFS };
  if (!raw) return out;
  try {
    const obj = JSON.parse(raw) as Record<string, unknown>;
    const target = out as unknown as Record<string, unknown>;
    for (const key of Object.keys(DEFAULT_PREFS) as (keyof Prefs)[]) {
      const v = obj[key];
      const d = DEFAULT_PREFS[key];
      if (v !== undefined && typeof v === typeof d && Array.isArray(v) === Array.isArray(d)) target[key] = v;
    }
  } catch {
    /* corrupted storage: defaults */
  }
  if (!["en", "zh-CN", "ru"].includes(out.language)) out.language = "en";
  if (out.theme !== "light") out.theme = "dark";
  return out;
}

function storage(): Storage | null {
  return typeof localStorage === "undefined" ? null : localStorage;
}

export const prefs = createStore<Prefs>(parsePrefs(storage()?.getItem(PREFS_KEY) ?? null));
prefs.subscribe((p) => storage()?.setItem(PREFS_KEY, JSON.stringify(p)));

export function setPref<K extends keyof Prefs>(key: K, value: Prefs[K]): void {
  prefs.set((p) => ({ ...p, [key]: value }));
}
