import { useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { ApiError, api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { importKind } from "../lib/validate/forms.ts";

interface ImportReply {
  imported: number;
  ids: number[];
  ignored: { row: number; key: string; message: string }[];
}
interface RowError {
  row: number;
  key: string;
  message: string;
}

const rowText = (e: RowError) => `#${e.row}: ${t(e.key) === e.key ? e.message : t(e.key)}`;

/** Import proxy config: a JSON export or an Excel sheet (xlsx only), sent as the multipart field `file`. */
export function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [lines, setLines] = useState<string[]>([]);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const kind = importKind(file.name);
    if (kind !== "json" && kind !== "xlsx") {
      setLines([t("lang.import.err_format")]);
      return;
    }
    const form = new FormData();
    form.set("file", file);
    try {
      const r = await api<ImportReply>("POST", "/api/ports/import", undefined, { form, quiet: true });
      setLines(r.ignored.map(rowText));
      toast(r.ignored.length ? "warn" : "ok", t("import.done", { n: r.imported, fail: r.ignored.length }));
      // Ignored rows (unsupported coins) stay listed; a clean import closes the dialog.
      if (r.ignored.length === 0) onDone();
    } catch (e) {
      const errs = e instanceof ApiError ? ((e.raw as { errors?: RowError[] } | null)?.errors ?? []) : [];
      setLines(errs.length ? errs.map(rowText) : [e instanceof ApiError ? e.text : String(e)]);
    }
  };
  return (
    <Modal title={t("import.title")} onClose={onClose} testId="import-dialog">
      <p class="mb-2 text-sm text-mute">{t("import.help")}</p>
      <label class="block text-sm">
        <span class="mb-1 block">{t("import.file")}</span>
        <input
          type="file"
          name="import-file"
          accept=".json,.xlsx"
          onChange={(e) => pick(e.currentTarget.files?.[0])}
        />
      </label>
      {lines.length > 0 && (
        <ul role="alert" class="mt-2 list-disc pl-5 text-sm text-bad">
          {lines.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
