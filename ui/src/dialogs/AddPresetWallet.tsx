import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { PresetTable } from "../components/PresetTable.tsx";
import { t } from "../lib/i18n.ts";
import { type EndpointSettings, loadEndpoint, saveEndpoint } from "../lib/presets.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { validatePresetWallet } from "../lib/validate/forms.ts";

/** Add preset wallet: name and address, and the custom wallets with a delete link. */
export function AddPresetWallet({ onClose }: { onClose: () => void }) {
  const [f, setF] = useState({ name: "", address: "" });
  const [settings, setSettings] = useState<EndpointSettings | null>(null);
  const reload = () => loadEndpoint().then(setSettings, () => undefined);
  useEffect(() => {
    reload();
  }, []);
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
    if (validatePresetWallet(f).length) {
      toast("warn", t("lang.preset.err_incomplete"));
      return;
    }
    persist({
      ...settings,
      customWallet: [
        ...settings.customWallet,
        { name: f.name.trim(), address: f.address.trim(), protocol: 0 },
      ],
    });
    setF({ name: "", address: "" });
  };
  const list = settings?.customWallet ?? [];
  return (
    <Modal title={t("preset.add_wallet")} onClose={onClose} testId="add-preset-wallet">
      <div class="flex flex-wrap items-end gap-2">
        <Field label={t("preset.name")}>
          <input
            class={INPUT}
            name="wallet-name"
            value={f.name}
            onInput={(e) => setF({ ...f, name: e.currentTarget.value })}
          />
        </Field>
        <Field label={t("preset.address")} class="flex-1">
          <input
            class={INPUT}
            name="wallet-address"
            value={f.address}
            onInput={(e) => setF({ ...f, address: e.currentTarget.value })}
          />
        </Field>
        <button type="button" class={BTN_PRIMARY} disabled={!settings} onClick={add}>
          {t("common.add")}
        </button>
      </div>
      <PresetTable
        class="mt-3"
        rows={list}
        action={{
          label: t("common.delete"),
          danger: true,
          onClick: (_, i) =>
            settings && persist({ ...settings, customWallet: list.filter((_, j) => j !== i) }),
        }}
        empty={t("preset.no_wallets")}
      />
    </Modal>
  );
}
