/**
 * The pool node's public page (docs/pool-node.md "Public page"): where it listens, under which route,
 * with or without TLS, and what it says above the figures. Kept as one settings value.
 */
import type { SettingsStore } from "../../store/settings.ts";

export interface PageSettings {
  enabled: boolean;
  port: number;
  /** "" (the root) or letters with one trailing slash, as the console's own route (spec §5) */
  route: string;
  tls: boolean;
  /** the page's heading; "" shows "<coin> pool" */
  title: string;
  /** a line for the miners under the heading (maintenance, payout times); "" for none */
  notice: string;
}

export const PAGE_SETTING = "poolnode_page";
export const DEFAULT_PAGE_PORT = 8090;
const DEFAULTS: PageSettings = {
  enabled: false,
  port: DEFAULT_PAGE_PORT,
  route: "",
  tls: false,
  title: "",
  notice: "",
};

export function readPageSettings(settings: SettingsStore): PageSettings {
  return { ...DEFAULTS, ...settings.get<Partial<PageSettings>>(PAGE_SETTING, {}) };
}

export function writePageSettings(settings: SettingsStore, next: PageSettings): void {
  settings.set<PageSettings>(PAGE_SETTING, next);
}
