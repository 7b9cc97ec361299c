/**
 * The push channels' configuration: a signed webhook, a Telegram-style bot API and SMTP email (the
 * fourth, ServerChan, is configured among the rules, where spec §3 keeps its key: push-targets.ts).
 * Secrets (the webhook's HMAC secret, the bot token, the SMTP password) never leave the server:
 * a read shows MASK where one is set, and a save that sends MASK back keeps the stored secret.
 */
import { z } from "zod";
import { keep, mask } from "../domain/secret-mask.ts";
import { sha256Fingerprint } from "../ops/cert/fingerprint.ts";
import type { SettingsStore } from "../store/settings.ts";

export const CHANNEL_SETTING = "alert_channels";

const E = "lang.alert.err_save";
const text = (max: number) => z.string(E).trim().max(max, E).default("");
export const httpUrl = z
  .string(E)
  .trim()
  .max(2000, E)
  .refine((s) => s === "" || /^https?:\/\/[^\s/]+/i.test(s), E)
  .default("");

export const channelsSchema = z
  .object({
    webhook: z
      .object({ enabled: z.boolean(E).default(false), url: httpUrl, secret: text(256) })
      .default({ enabled: false, url: "", secret: "" }),
    telegram: z
      .object({
        enabled: z.boolean(E).default(false),
        /** the bot API's address; another server speaking the same API (or a test's) may stand in */
        base_url: httpUrl,
        token: text(256),
        chat_id: text(64),
      })
      .default({ enabled: false, base_url: "", token: "", chat_id: "" }),
    email: z
      .object({
        enabled: z.boolean(E).default(false),
        host: text(253),
        port: z.number(E).int(E).min(1, E).max(65535, E).default(587),
        starttls: z.boolean(E).default(true),
        /**
         * the one certificate to trust instead of the CAs, for a LAN relay with its own self-signed
         * certificate; "" = the CAs and the server's name
         */
        tls_fingerprint: z.union([z.literal(""), sha256Fingerprint(E)]).default(""),
        user: text(256),
        password: text(256),
        from: text(256),
        /** recipients, separated by commas */
        to: text(2000),
      })
      .default({
        enabled: false,
        host: "",
        port: 587,
        starttls: true,
        tls_fingerprint: "",
        user: "",
        password: "",
        from: "",
        to: "",
      }),
  })
  .superRefine((c, ctx) => {
    const need = (ok: boolean, path: string[]) => {
      if (!ok) ctx.addIssue({ code: "custom", message: E, path });
    };
    if (c.webhook.enabled) need(c.webhook.url !== "", ["webhook", "url"]);
    if (c.telegram.enabled) {
      need(c.telegram.token !== "", ["telegram", "token"]);
      need(c.telegram.chat_id !== "", ["telegram", "chat_id"]);
    }
    if (c.email.enabled) {
      need(c.email.host !== "", ["email", "host"]);
      need(/^[^\s@,]+@[^\s@,]+$/.test(c.email.from), ["email", "from"]);
      need(
        c.email.to.split(",").every((a) => /^[^\s@,]+@[^\s@,]+$/.test(a.trim())),
        ["email", "to"],
      );
    }
  });

export type Channels = z.infer<typeof channelsSchema>;

export const TELEGRAM_API = "https://api.telegram.org";

export function readChannels(settings: SettingsStore): Channels {
  const parsed = channelsSchema.safeParse(settings.get<unknown>(CHANNEL_SETTING, {}));
  return parsed.success ? parsed.data : channelsSchema.parse({});
}

/** What a read shows. */
export function redactChannels(c: Channels): Channels {
  return {
    webhook: { ...c.webhook, secret: mask(c.webhook.secret) },
    telegram: { ...c.telegram, token: mask(c.telegram.token) },
    email: { ...c.email, password: mask(c.email.password) },
  };
}

/** A saved form carries MASK for the secrets it did not change: those keep their stored value. */
export function keepSecrets(next: Channels, stored: Channels): Channels {
  return {
    webhook: { ...next.webhook, secret: keep(next.webhook.secret, stored.webhook.secret) },
    telegram: { ...next.telegram, token: keep(next.telegram.token, stored.telegram.token) },
    email: { ...next.email, password: keep(next.email.password, stored.email.password) },
  };
}
