import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { PresetTable } from "../components/PresetTable.tsx";
import { t } from "../lib/i18n.ts";
import { type CustomWallet, loadEndpoint } from "../lib/presets.ts";

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
      <PresetTable
        rows={rows}
        action={{ label: t("preset.select"), onClick: (r) => onSelect(r.address) }}
        empty={t("preset.no_wallets")}
      />
    </Modal>
  );
}
