/**
 * Alert texts come from the console's catalogs (locales/*.json), so the operator reads a pushed
 * message in the words and the language the console uses, and the console shows the history with
 * the same keys. Placeholders are `{name}`, as lingui writes them.
 */
import en from "../../locales/en.json" with { type: "json" };
import ru from "../../locales/ru.json" with { type: "json" };
import zh from "../../locales/zh-CN.json" with { type: "json" };
import type { AlertVars } from "../store/alert-history.ts";
import type { AlertLanguage } from "./rule-settings.ts";

const CATALOGS: Record<AlertLanguage, Record<string, string>> = { en, ru, "zh-CN": zh };

export function render(lang: AlertLanguage, key: string, vars: AlertVars = {}): string {
  const template = CATALOGS[lang][key] ?? CATALOGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
