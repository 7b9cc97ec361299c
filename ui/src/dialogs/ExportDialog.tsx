import { Modal } from "../components/Modal.tsx";
import { apiUrl, getToken } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";

/** Export proxy config: GET /api/ports/export as JSON (or xlsx), downloaded with the bearer token. */
export function ExportDialog({ onClose }: { onClose: () => void }) {
  const download = async (format: "json" | "xlsx") => {
    const res = await fetch(apiUrl(`/api/ports/export${format === "xlsx" ? "?format=xlsx" : ""}`), {
      headers: { Authorization: `Bearer ${getToken() ?? ""}` },
    }).catch(() => null);
    if (!res?.ok) {
      toast("err", t("lang.err.get_config"), `GET /api/ports/export · ${res?.status ?? 0}`);
      return;
    }
    const a = document.createElement("a");
    a.href = URL.createObjectURL(await res.blob());
    a.download = `pithead-ports.${format}`;
    a.click();
    URL.revokeObjectURL(a.href);
    toast("ok", t("export.done"));
  };
  return (
    <Modal title={t("export.title")} onClose={onClose} testId="export-dialog">
      <p class="mb-3 text-sm text-mute">{t("export.help")}</p>
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={() => download("json")}>
          {t("export.download")}
        </button>
        <button type="button" class={BTN_GHOST} onClick={() => download("xlsx")}>
          {t("export.download_xlsx")}
        </button>
      </div>
    </Modal>
  );
}
