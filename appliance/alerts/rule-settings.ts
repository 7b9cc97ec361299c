/**
 * What the operator chose to be told about (spec §3 "Offline alert settings", extended): each rule
 * has its threshold, 0 or false turning it off. Stored under one settings key; a value stored by an
 * older version is read with the newer fields at their defaults.
 */
import { z } from "zod";
import { keep, mask } from "../domain/secret-mask.ts";
import type { SettingsStore } from "../store/settings.ts";
import { httpUrl } from "./channel-settings.ts";

export const ALERT_SETTING = "alert";

export const ALERT_LANGUAGES = ["en", "ru", "zh-CN"] as const;
export type AlertLanguage = (typeof ALERT_LANGUAGES)[number];

const E = "lang.alert.err_save";
const bounded = (max: number, fallback: number) => z.number(E).min(0, E).max(max, E).default(fallback);

export const alertRulesSchema = z.object({
  /** a device that stays disconnected for `offline_grace_s` is reported, and again when it is back */
  device_offline: z.boolean(E).default(false),
  offline_grace_s: z.number(E).int(E).min(1, E).max(86_400, E).default(120),
  /** percent drop of a port's hashrate against the previous 15 minutes; 0 = off */
  hashrate_drop: bounded(100, 0),
  /** percentage points the fee achieved may stray from the target before it is reported; 0 = off */
  fee_drift_pp: bounded(100, 0),
  /** disk usage of the data directory, percent; 0 = off */
  disk_percent: bounded(100, 90),
  /** days before the TLS certificate expires; 0 = off */
  cert_days: z.number(E).int(E).min(0, E).max(36_500, E).default(14),
  /** pool failover and fail-back */
  pool_failover: z.boolean(E).default(true),
  /** the language messages are written in (the console's languages) */
  lang: z.enum(ALERT_LANGUAGES, E).default("en"),
  /**
   * the ServerChan SendKey, spec §3's "push key for a chat push service" (channels/serverchan.ts);
   * "" = off. A secret: read back as MASK like the channels' secrets.
   */
  push_key: z.string(E).trim().max(256, E).default(""),
  /** ServerChan's address, "" = the service; another server speaking its API (or a test's) may stand in */
  push_url: httpUrl,
});

export type AlertRules = z.infer<typeof alertRulesSchema>;

/** What a read shows: the SendKey as MASK when one is set. */
export const redactRules = (r: AlertRules): AlertRules => ({ ...r, push_key: mask(r.push_key) });

/** A saved form that sends MASK back keeps the stored SendKey. */
export const keepRulesSecret = (next: AlertRules, stored: AlertRules): AlertRules => ({
  ...next,
  push_key: keep(next.push_key, stored.push_key),
});

export function readAlertRules(settings: SettingsStore): AlertRules {
  const parsed = alertRulesSchema.safeParse(settings.get<unknown>(ALERT_SETTING, {}));
  return parsed.success ? parsed.data : alertRulesSchema.parse({});
}
