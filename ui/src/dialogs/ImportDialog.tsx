import { useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { importKind } from "../lib/validate/forms.ts";

interface ImportReply {
  imported: number;
  errors?: { port?: number; key: string; message: string }[];
}

async function readPorts(file: File, kind: "json" | "xlsx" | "txt"): Promise<unknown> {
  if (kind === "json") return { format: "json", ports: JSON.parse(await file.text()) };
  if (kind === "txt") return { format: "txt", content: await file.text() };
  const XLSX = await import("@e965/xlsx");
  const wb = XLSX.read(await file.arrayBuffer(), { type: "array" });
  const sheet = wb.Sheets[wb.SheetNames[0]];
  return { format: "xlsx", ports: sheet ? XLSX.utils.sheet_to_json(sheet) : [] };
}

/** Import proxy config: JSON, Excel (xlsx only) or a third-party proxy port file. */
export function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [errors, setErrors] = useState<string[]>([]);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const kind = importKind(file.name);
    if (!kind) {
      setErrors([t("import.bad_type")]);
      return;
    }
    try {
      const r = await post<ImportReply>("/api/ports/import", await readPorts(file, kind));
      const errs = (r.errors ?? []).map(
        (e) => `${e.port ?? ""} ${t(e.key) === e.key ? e.message : t(e.key)}`,
      );
      setErrors(errs);
      toast(errs.length ? "warn" : "ok", t("import.done", { n: r.imported ?? 0, fail: errs.length }));
      if (!errs.length) onDone();
    } catch (e) {
      if (e instanceof SyntaxError) setErrors([t("import.bad_json")]);
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
          accept=".json,.xlsx,.txt,.conf"
          onChange={(e) => pick(e.currentTarget.files?.[0])}
        />
      </label>
      {errors.length > 0 && (
        <ul role="alert" class="mt-2 list-disc pl-5 text-sm text-bad">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
