import { Field } from "../components/Field.tsx";
import { coinLabel, notOffered, visibleCoins } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { LISTEN_CHOICES, type ListenChoice, NGINX } from "../lib/port-form.ts";
import { currency } from "../lib/session.ts";
import { INPUT } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { ModePicker } from "./ModePicker.tsx";
import { PoolInput } from "./PoolInput.tsx";
import { SocksCredentials } from "./SocksCredentials.tsx";
import { errorFor, type TabProps } from "./types.ts";

/** Default settings: port, remark, coin, listening protocol, pools, connection mode, limits. */
export function BasicTab({ form, set, errors }: TabProps) {
  const cfg = useStore(currency);
  const err = (f: string) => {
    const k = errorFor(errors, f);
    return k ? t(k) : null;
  };
  const nginx = form.currency === NGINX;
  return (
    <div class="grid gap-3 sm:grid-cols-2">
      <Field label={t("port.port")} error={err("port")}>
        <input
          class={INPUT}
          name="port"
          inputMode="numeric"
          type="number"
          min={1}
          max={65534}
          value={form.port}
          onInput={(e) => set({ port: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("port.name")}>
        <input
          class={INPUT}
          name="name"
          value={form.name}
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("port.currency")} error={err("currency")}>
        <select
          class={INPUT}
          name="currency"
          value={form.currency}
          onChange={(e) =>
            set({ currency: e.currentTarget.value, category: cfg[e.currentTarget.value]?.category ?? "" })
          }
        >
          <option value="">{t("editor.choose_coin")}</option>
          {visibleCoins(cfg).map((c) => (
            <option key={c} value={c} disabled={notOffered(cfg[c])}>
              {coinLabel(c, t("lang.coin.nginx"))}
              {notOffered(cfg[c]) ? ` — ${t("coin.not_available")}` : ""}
            </option>
          ))}
        </select>
        {notOffered(cfg[form.currency]) && (
          <p role="alert" class="mt-1 text-xs text-warn">
            {t("lang.proxy.err_family")}
          </p>
        )}
      </Field>
      <Field label={t("port.protocol")}>
        <select
          class={INPUT}
          name="listen"
          value={form.listen}
          onChange={(e) => set({ listen: e.currentTarget.value as ListenChoice })}
        >
          {(nginx ? (["TCP", "SSL"] as ListenChoice[]) : LISTEN_CHOICES).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </Field>
      {form.listen === "SOCKS5" && <SocksCredentials form={form} set={set} errors={errors} />}
      <PoolInput form={form} set={set} which={1} error={err("pool_address")} />
      {!nginx && <PoolInput form={form} set={set} which={2} error={null} />}
      <Field label={t("port.limit")} error={err("limit_connections")} hint={t("port.limit_hint")}>
        <input
          class={INPUT}
          name="limit_connections"
          type="number"
          min={0}
          max={65535}
          value={form.limit_connections}
          onInput={(e) => set({ limit_connections: e.currentTarget.value })}
        />
      </Field>
      {!nginx && (
        <ModePicker form={form} set={set} errors={errors} offered={cfg[form.currency]?.modes ?? null} />
      )}
    </div>
  );
}
