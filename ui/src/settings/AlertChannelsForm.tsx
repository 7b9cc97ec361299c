import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";
import type { AlertChannels, AlertRules } from "./alert-types.ts";

interface Props {
  value: AlertChannels;
  onChange: (v: AlertChannels) => void;
  /** ServerChan's key and address are saved with the rules (spec §3 "push key") */
  rules: AlertRules;
  onRules: (p: Partial<AlertRules>) => void;
}

/**
 * The push channels. Secrets come back from the server as "********" when set; sent back unchanged
 * they keep their stored value, so the form never holds a secret it did not get typed in.
 */
export function AlertChannelsForm({ value: c, onChange, rules, onRules }: Props) {
  const webhook = (p: Partial<AlertChannels["webhook"]>) =>
    onChange({ ...c, webhook: { ...c.webhook, ...p } });
  const telegram = (p: Partial<AlertChannels["telegram"]>) =>
    onChange({ ...c, telegram: { ...c.telegram, ...p } });
  const email = (p: Partial<AlertChannels["email"]>) => onChange({ ...c, email: { ...c.email, ...p } });
  const text = (label: string, v: string, set: (s: string) => void, secret = false) => {
    const onInput = (e: { currentTarget: HTMLInputElement }) => set(e.currentTarget.value);
    return (
      <Field label={label}>
        {secret ? (
          <input class={INPUT} type="password" autoComplete="new-password" value={v} onInput={onInput} />
        ) : (
          <input class={INPUT} value={v} onInput={onInput} />
        )}
      </Field>
    );
  };
  return (
    <div class="grid gap-3 md:grid-cols-3" data-testid="alert-channels">
      <fieldset class="space-y-2">
        <legend class="text-sm font-semibold">{t("alert.webhook")}</legend>
        <Check
          label={t("alert.enabled")}
          checked={c.webhook.enabled}
          onChange={(v) => webhook({ enabled: v })}
        />
        {text(t("alert.webhook_url"), c.webhook.url, (url) => webhook({ url }))}
        {text(t("alert.webhook_secret"), c.webhook.secret, (secret) => webhook({ secret }), true)}
      </fieldset>
      <fieldset class="space-y-2">
        <legend class="text-sm font-semibold">{t("alert.telegram")}</legend>
        <Check
          label={t("alert.enabled")}
          checked={c.telegram.enabled}
          onChange={(v) => telegram({ enabled: v })}
        />
        {text(t("alert.telegram_base"), c.telegram.base_url, (base_url) => telegram({ base_url }))}
        {text(t("alert.telegram_token"), c.telegram.token, (token) => telegram({ token }), true)}
        {text(t("alert.telegram_chat"), c.telegram.chat_id, (chat_id) => telegram({ chat_id }))}
      </fieldset>
      <fieldset class="space-y-2">
        <legend class="text-sm font-semibold">{t("alert.email")}</legend>
        <Check label={t("alert.enabled")} checked={c.email.enabled} onChange={(v) => email({ enabled: v })} />
        {text(t("alert.smtp_host"), c.email.host, (host) => email({ host }))}
        <Field label={t("alert.smtp_port")}>
          <input
            class={INPUT}
            type="number"
            value={c.email.port}
            onInput={(e) => email({ port: Number(e.currentTarget.value) })}
          />
        </Field>
        <Check
          label={t("alert.smtp_starttls")}
          checked={c.email.starttls}
          onChange={(v) => email({ starttls: v })}
        />
        {text(t("alert.smtp_fingerprint"), c.email.tls_fingerprint, (tls_fingerprint) =>
          email({ tls_fingerprint }),
        )}
        {text(t("alert.smtp_user"), c.email.user, (user) => email({ user }))}
        {text(t("alert.smtp_password"), c.email.password, (password) => email({ password }), true)}
        {text(t("alert.smtp_from"), c.email.from, (from) => email({ from }))}
        {text(t("alert.smtp_to"), c.email.to, (to) => email({ to }))}
      </fieldset>
      <fieldset class="space-y-2">
        <legend class="text-sm font-semibold">{t("alert.serverchan")}</legend>
        {text(t("alert.push_key"), rules.push_key, (push_key) => onRules({ push_key }), true)}
        {text(t("alert.push_url"), rules.push_url, (push_url) => onRules({ push_url }))}
      </fieldset>
    </div>
  );
}
