import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { PresetTable } from "../components/PresetTable.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { coinLabel, visibleCoins } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import {
  type BuiltinPool,
  type EndpointSettings,
  loadBuiltinPools,
  loadEndpoint,
  poolsOfCoin,
  saveEndpoint,
} from "../lib/presets.ts";
import { currency } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { validatePresetPool } from "../lib/validate/forms.ts";

/** Add preset pool: coin (default BTC), name, address, protocol; custom and built-in tabs for the coin. */
export function AddPresetPool({ onClose }: { onClose: () => void }) {
  const coins = visibleCoins(useStore(currency));
  const [coin, setCoin] = useState("BTC");
  const [f, setF] = useState({ name: "", address: "", deal: 0 as 0 | 1 });
  const [tab, setTab] = useState("custom");
  const [settings, setSettings] = useState<EndpointSettings | null>(null);
  const [builtin, setBuiltin] = useState<BuiltinPool[]>([]);
  const reload = () => loadEndpoint().then(setSettings, () => undefined);
  useEffect(() => {
    reload();
  }, []);
  useEffect(() => {
    loadBuiltinPools().then(
      (l) => setBuiltin(poolsOfCoin(l, coin)),
      () => toast("err", t("preset.load_failed")),
    );
  }, [coin]);
  const persist = async (next: EndpointSettings) => {
    try {
      await saveEndpoint(next);
      toast("ok", t("common.saved"));
      reload();
    } catch {
      /* toast shown */
    }
  };
  const add = () => {
    if (!settings) return;
    if (validatePresetPool({ coin, name: f.name, address: f.address, deal: String(f.deal) }).length) {
      toast("warn", t("lang.preset.err_incomplete"));
      return;
    }
    persist({
      ...settings,
      customPool: [
        ...settings.customPool,
        { coin, name: f.name.trim(), address: f.address.trim(), deal: f.deal },
      ],
    });
    setF({ name: "", address: "", deal: 0 });
  };
  const custom = poolsOfCoin(settings?.customPool ?? [], coin);
  const remove = (i: number) =>
    settings && persist({ ...settings, customPool: settings.customPool.filter((p) => p !== custom[i]) });
  return (
    <Modal title={t("preset.add_pool")} onClose={onClose} wide testId="add-preset-pool">
      <div class="grid gap-2 sm:grid-cols-4">
        <Field label={t("port.currency")}>
          <select class={INPUT} value={coin} onChange={(e) => setCoin(e.currentTarget.value)}>
            {coins.map((c) => (
              <option key={c} value={c}>
                {coinLabel(c, t("lang.coin.nginx"))}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("preset.name")}>
          <input
            class={INPUT}
            name="preset-name"
            value={f.name}
            onInput={(e) => setF({ ...f, name: e.currentTarget.value })}
          />
        </Field>
        <Field label={t("preset.address")} class="sm:col-span-2">
          <input
            class={INPUT}
            name="preset-address"
            value={f.address}
            onInput={(e) => setF({ ...f, address: e.currentTarget.value })}
          />
        </Field>
      </div>
      <fieldset class="my-2 flex items-center gap-3 text-sm">
        <legend class="sr-only">{t("port.pool_protocol")}</legend>
        {(["TCP", "SSL"] as const).map((p, i) => (
          <label key={p} class="inline-flex items-center gap-1">
            <input
              type="radio"
              name="deal"
              checked={f.deal === i}
              onChange={() => setF({ ...f, deal: i as 0 | 1 })}
            />{" "}
            {p}
          </label>
        ))}
        <button type="button" class={BTN_PRIMARY} disabled={!settings} onClick={add}>
          {t("common.add")}
        </button>
      </fieldset>
      <Tabs
        active={tab}
        onSelect={setTab}
        tabs={[
          { key: "custom", label: t("preset.custom") },
          { key: "builtin", label: t("preset.builtin") },
        ]}
      />
      <PresetTable
        protocol
        rows={
          tab === "custom"
            ? custom.map((p) => ({ name: p.name, address: p.address, deal: p.deal }))
            : builtin.map((b) => ({ name: b.content, address: b.url, deal: b.protocol }))
        }
        action={
          tab === "custom"
            ? { label: t("common.delete"), danger: true, onClick: (_, i) => remove(i) }
            : undefined
        }
        empty={t("preset.no_pools", { coin })}
      />
    </Modal>
  );
}
