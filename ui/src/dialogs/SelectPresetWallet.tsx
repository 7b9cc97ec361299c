import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { type CustomWallet, loadEndpoint } from "../lib/presets.ts";
import { LINK, TD, TH } from "../lib/ui.ts";

/** Select preset wallet: custom wallets with a select link that hands the row back and closes. */
export function SelectPresetWallet({
  onClose,
  onSelect,
}: {
  onClose: () => void;
  onSelect: (addr: string) => void;
}) {
  const [rows, setRows] = useState<CustomWallet[]>([]);
  useEffect(() => {
    loadEndpoint()
      .then((s) => setRows(s.customWallet))
      .catch(() => undefined);
  }, []);
  return (
    <Modal title={t("preset.select_wallet")} onClose={onClose} testId="select-wallet">
      <table class="w-full text-sm">
        <thead>
          <tr>
            <th class={TH}>{t("preset.name")}</th>
            <th class={TH}>{t("preset.address")}</th>
            <th class={TH} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.address} class="border-t border-line">
              <td class={TD}>{r.name}</td>
              <td class={`${TD} font-mono text-xs`}>{r.address}</td>
              <td class={TD}>
                <button type="button" class={LINK} onClick={() => onSelect(r.address)}>
                  {t("preset.select")}
                </button>
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
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
