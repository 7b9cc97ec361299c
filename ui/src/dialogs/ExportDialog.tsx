import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { listPorts } from "../lib/port-api.ts";
import type { PortItem } from "../lib/port-types.ts";
import { BTN_PRIMARY } from "../lib/ui.ts";

/** Export proxy config as JSON: the port list with wallets and settings, downloaded as a file. */
export function ExportDialog({ onClose }: { onClose: () => void }) {
  const [items, setItems] = useState<PortItem[] | null>(null);
  useEffect(() => {
    listPorts()
      .then(setItems)
      .catch(() => setItems([]));
  }, []);
  const json = JSON.stringify(
    (items ?? []).map((i) => ({ ...i.server, setting: i.setting, wallets: i.wallets })),
    null,
    2,
  );
  const download = () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([json], { type: "application/json" }));
    a.download = "pithead-ports.json";
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <Modal title={t("export.title")} onClose={onClose} testId="export-dialog">
      <p class="mb-2 text-sm">{t("export.count", { n: items?.length ?? 0 })}</p>
      <textarea
        readOnly
        aria-label={t("export.title")}
        class="h-48 w-full rounded border border-line bg-panel2 p-2 font-mono text-xs"
        value={json}
      />
      <button type="button" class={`${BTN_PRIMARY} mt-2`} onClick={download} disabled={!items}>
        {t("export.download")}
      </button>
    </Modal>
  );
}
