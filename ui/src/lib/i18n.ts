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

type SectionLoaders = Record<Language, () => Promise<{ default: Messages }>>;
/** Catalog sections of lazily loaded pages (ui/build.ts LAZY_SECTIONS), once a page asked for one. */
const sections: SectionLoaders[] = [];
const sectionsLoaded = new Set<string>();

async function loadSectionIn(lang: Language, section: SectionLoaders, index: number): Promise<void> {
  const key = `${index} ${lang}`;
  if (sectionsLoaded.has(key)) return;
  // merged into the language's messages (lingui's load adds to what a locale has)
  i18n.load(lang, (await section[lang]()).default);
  sectionsLoaded.add(key);
}

/**
 * Loads a lazy page's catalog section for the language in use, and for every language chosen later;
 * the page's chunk waits for it, so it never shows a bare key.
 */
export async function loadSection(section: SectionLoaders): Promise<void> {
  let index = sections.indexOf(section);
  if (index < 0) index = sections.push(section) - 1;
  await loadSectionIn((i18n.locale || "en") as Language, section, index);
}

export async function setLanguage(lang: Language): Promise<void> {
  if (lang !== "en" && !loaded.has(lang)) {
    const mod = await loaders[lang]();
    i18n.load(lang, mod.default);
    loaded.add(lang);
  }
  await Promise.all(sections.map((s, i) => loadSectionIn(lang, s, i)));
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
