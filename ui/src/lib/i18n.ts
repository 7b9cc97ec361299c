/** Lingui setup: English is bundled, the other catalogs are loaded on demand. */

import en from "locale:en";
import { i18n, type Messages } from "@lingui/core";
import type { Language } from "./prefs.ts";

export const LANGUAGES: { code: Language; label: string }[] = [
  { code: "en", label: "English" },
  { code: "zh-CN", label: "简体中文" },
  { code: "ru", label: "Русский" },
];

i18n.load("en", en);
i18n.activate("en");

const loaders: Record<Exclude<Language, "en">, () => Promise<{ default: Messages }>> = {
  "zh-CN": () => import("locale:zh-CN"),
  ru: () => import("locale:ru"),
};

const loaded = new Set<string>(["en"]);

export async function setLanguage(lang: Language): Promise<void> {
  if (lang !== "en" && !loaded.has(lang)) {
    const mod = await loaders[lang]();
    i18n.load(lang, mod.default);
    loaded.add(lang);
  }
  i18n.activate(lang);
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

/** Translate a catalog key. */
export function t(id: string, values?: Record<string, unknown>): string {
  return i18n._(id, values);
}

/** True when the active catalog has the key (server error keys may be unknown to the console). */
export function hasKey(id: string): boolean {
  return id in (i18n.messages ?? {});
}

export { i18n };
