import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { type EndpointSettings, loadEndpoint, saveEndpoint } from "../lib/presets.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT, LINK, TD, TH } from "../lib/ui.ts";
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
      <table class="mt-3 w-full text-sm">
        <thead>
          <tr>
            <th class={TH}>{t("preset.name")}</th>
            <th class={TH}>{t("preset.address")}</th>
            <th class={TH} />
          </tr>
        </thead>
        <tbody>
          {list.map((w, i) => (
            <tr key={`${w.address}-${i}`} class="border-t border-line">
              <td class={TD}>{w.name}</td>
              <td class={`${TD} font-mono text-xs`}>{w.address}</td>
              <td class={TD}>
                <button
                  type="button"
                  class={`${LINK} text-bad`}
                  onClick={() =>
                    settings && persist({ ...settings, customWallet: list.filter((_, j) => j !== i) })
                  }
                >
                  {t("common.delete")}
                </button>
              </td>
            </tr>
          ))}
          {list.length === 0 && (
            <tr>
              <td colSpan={3} class="p-4 text-center text-mute">
                {t("preset.no_wallets")}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </Modal>
  );
}
