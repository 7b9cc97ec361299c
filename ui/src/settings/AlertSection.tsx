import { useEffect, useState } from "preact/hooks";
import { Check } from "../components/Check.tsx";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { LANGUAGES, t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT_BASE } from "../lib/ui.ts";
import { AlertChannelsForm } from "./AlertChannelsForm.tsx";
import { AlertHistory } from "./AlertHistory.tsx";
import type { AlertChannels, AlertRules, TestResult } from "./alert-types.ts";

const DROPS = [0, 10, 20, 30, 50, 80];

/**
 * Alerts: what to be told about (device offline after a grace period, a port's hashrate drop against
 * the previous 15 minutes, pool failover, fee drift, disk, certificate), where to (webhook, bot,
 * email, ServerChan), a test message, and the history of what fired.
 */
export function AlertSection() {
  const [rules, setRules] = useState<AlertRules | null>(null);
  const [channels, setChannels] = useState<AlertChannels | null>(null);
  useEffect(() => {
    get<AlertRules>("/api/warning/setting")
      .then(setRules)
      .catch(() => undefined);
    get<AlertChannels>("/api/warning/channels")
      .then(setChannels)
      .catch(() => undefined);
  }, []);
  if (rules === null || channels === null) return null;
  const set = (p: Partial<AlertRules>) => setRules({ ...rules, ...p });
  const num = (label: string, v: number, apply: (n: number) => void) => (
    <Field label={label}>
      <input
        class={`${INPUT_BASE} w-40`}
        type="number"
        min={0}
        value={v}
        onInput={(e) => apply(Number(e.currentTarget.value))}
      />
    </Field>
  );
  const save = async () => {
    try {
      setRules(await post<AlertRules>("/api/warning/setting", rules));
      setChannels(await post<AlertChannels>("/api/warning/channels", channels));
      toast("ok", t("common.saved"));
    } catch {
      // the API's error toast has been shown
    }
  };
  const testSend = async () => {
    const { results } = await post<{ results: TestResult[] }>("/api/warning/test", {});
    if (results.length === 0) toast("warn", t("alert.test_none"));
    for (const r of results) {
      if (r.ok) toast("ok", t("alert.test_ok", { channel: r.channel }));
      else toast("err", t("alert.test_failed", { channel: r.channel, error: r.error ?? "" }));
    }
  };
  return (
    <div class="space-y-4">
      <div class="grid gap-3 md:grid-cols-3">
        <Check
          label={t("alert.device_offline")}
          checked={rules.device_offline}
          onChange={(v) => set({ device_offline: v })}
        />
        {num(t("alert.grace"), rules.offline_grace_s, (n) => set({ offline_grace_s: n }))}
        <Field label={t("alert.hashrate_drop")}>
          <select
            class={`${INPUT_BASE} w-40`}
            value={rules.hashrate_drop}
            onChange={(e) => set({ hashrate_drop: Number(e.currentTarget.value) })}
          >
            {DROPS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? t("alert.off") : `${d}%`}
              </option>
            ))}
          </select>
        </Field>
        <Check
          label={t("alert.pool_failover")}
          checked={rules.pool_failover}
          onChange={(v) => set({ pool_failover: v })}
        />
        {num(t("alert.fee_drift"), rules.fee_drift_pp, (n) => set({ fee_drift_pp: n }))}
        {num(t("alert.disk"), rules.disk_percent, (n) => set({ disk_percent: n }))}
        {num(t("alert.cert_days"), rules.cert_days, (n) => set({ cert_days: n }))}
        <Field label={t("alert.language")}>
          <select
            class={`${INPUT_BASE} w-40`}
            value={rules.lang}
            onChange={(e) => set({ lang: e.currentTarget.value as AlertRules["lang"] })}
          >
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <h3 class="text-sm font-semibold">{t("alert.channels")}</h3>
      <AlertChannelsForm value={channels} onChange={setChannels} rules={rules} onRules={set} />
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={save}>
          {t("common.save")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={testSend}>
          {t("alert.test_send")}
        </button>
      </div>
      <AlertHistory />
    </div>
  );
}
