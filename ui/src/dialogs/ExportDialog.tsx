import { Modal } from "../components/Modal.tsx";
import { download } from "../lib/download.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";

/** Export proxy config: GET /api/ports/export as JSON (or xlsx), downloaded with the bearer token. */
export function ExportDialog({ onClose }: { onClose: () => void }) {
  const save = async (format: "json" | "xlsx") => {
    const path = `/api/ports/export${format === "xlsx" ? "?format=xlsx" : ""}`;
    const res = await download(path, `pithead-ports.${format}`);
    if (!res.ok) {
      toast("err", t("lang.err.get_config"), `GET /api/ports/export · ${res.status}`);
      return;
    }
    toast("ok", t("export.done"));
  };
  return (
    <Modal title={t("export.title")} onClose={onClose} testId="export-dialog">
      <p class="mb-3 text-sm text-mute">{t("export.help")}</p>
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={() => save("json")}>
          {t("export.download")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={() => save("xlsx")}>
          {t("export.download_xlsx")}
        </button>
      </div>
    </Modal>
  );
}
