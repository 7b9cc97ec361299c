import { useState } from "preact/hooks";
import { download } from "../lib/download.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, INPUT_BASE } from "../lib/ui.ts";

const HOUR_MS = 3_600_000;
const RANGES = {
  "24h": { ms: 24 * HOUR_MS, label: () => t("audit.range_24h") },
  "7d": { ms: 7 * 24 * HOUR_MS, label: () => t("audit.range_7d") },
  "30d": { ms: 30 * 24 * HOUR_MS, label: () => t("audit.range_30d") },
} as const;
type Range = keyof typeof RANGES;

/** The hourly fee audit of the port (docs/api.md "Fee audit") for a chosen range, as CSV or xlsx. */
export function FeeAuditExport({ portId }: { portId: number }) {
  const [range, setRange] = useState<Range>("24h");
  const [busy, setBusy] = useState(false);
  const fetchAudit = async (format: "csv" | "xlsx") => {
    const to = Date.now();
    const path = `/api/stat/port/${portId}/fee-audit?from=${to - RANGES[range].ms}&to=${to}&format=${format}`;
    setBusy(true);
    const res = await download(path);
    setBusy(false);
    if (res.ok) toast("ok", t("audit.done"));
    else toast("err", t("lang.audit.err_export"), `GET ${path} · ${res.status}`);
  };
  return (
    <div class="flex flex-wrap items-center gap-2" data-testid="fee-audit">
      <span class="text-sm font-medium">{t("audit.title")}</span>
      <select
        class={`${INPUT_BASE} text-sm`}
        aria-label={t("audit.range")}
        value={range}
        onChange={(e) => setRange(e.currentTarget.value as Range)}
      >
        {(Object.keys(RANGES) as Range[]).map((r) => (
          <option key={r} value={r}>
            {RANGES[r].label()}
          </option>
        ))}
      </select>
      <button type="button" class={BTN_GHOST} disabled={busy} onClick={() => fetchAudit("csv")}>
        {t("audit.csv")}
      </button>
      <button type="button" class={BTN_GHOST} disabled={busy} onClick={() => fetchAudit("xlsx")}>
        {t("audit.xlsx")}
      </button>
      <span class="text-xs text-mute">{t("audit.help")}</span>
    </div>
  );
}
