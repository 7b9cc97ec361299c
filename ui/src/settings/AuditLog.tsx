import { useState } from "preact/hooks";
import { get } from "../lib/api.ts";
import { download } from "../lib/download.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, INPUT_BASE } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

interface Change {
  field: string;
  old: string | number | boolean | null;
  new: string | number | boolean | null;
}
interface Entry {
  id: number;
  at: string;
  credential: string;
  session: string;
  address: string;
  action: string;
  object: string;
  outcome: "changed" | "refused";
  detail: string;
  changes: Change[];
}

const show = (v: Change["old"]) => (v === null ? "∅" : String(v));

function who(e: Entry): string {
  const labels: Record<string, string> = {
    admin: t("auditlog.admin"),
    control: t("auditlog.control"),
    metrics: t("auditlog.metrics"),
    cli: t("auditlog.cli"),
  };
  const name = labels[e.credential] ?? e.credential;
  return [e.session ? `${name} ${e.session}` : name, e.address].filter(Boolean).join(" · ");
}

/** The audit log of configuration changes: newest first, a text filter, and the CSV export. */
export function AuditLog() {
  const [q, setQ] = useState("");
  const query = q.trim() ? `&q=${encodeURIComponent(q.trim())}` : "";
  const [page] = useFetch(
    () => get<{ total: number; items: Entry[] }>(`/api/audit?limit=200${query}`),
    [query],
  );
  const exportCsv = async () => {
    const res = await download(`/api/audit/export?${query.slice(1)}`);
    if (!res.ok) toast("err", t("auditlog.export_failed"));
  };
  return (
    <div data-testid="audit-log">
      <div class="mb-2 flex flex-wrap items-center gap-2">
        <input
          class={`${INPUT_BASE} flex-1`}
          aria-label={t("auditlog.filter")}
          placeholder={t("auditlog.filter")}
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
        <button type="button" class={BTN_GHOST} onClick={exportCsv}>
          {t("auditlog.export")}
        </button>
      </div>
      <p class="mb-1 text-xs text-mute">{t("auditlog.total", { n: page?.total ?? 0 })}</p>
      <ul class="max-h-96 space-y-2 overflow-y-auto text-xs">
        {(page?.items ?? []).map((e) => (
          <li key={e.id} class="border-b border-line pb-1" data-outcome={e.outcome}>
            <div class="flex flex-wrap gap-2">
              <span class="text-mute">{formatTime(e.at)}</span>
              <span>{who(e)}</span>
              <span class="font-mono">{e.action}</span>
              {e.object && <span>{e.object}</span>}
              {e.outcome === "refused" && <span class="text-bad">{t("auditlog.refused")}</span>}
            </div>
            {e.detail && <div class="text-mute">{e.detail}</div>}
            {e.changes.map((c) => (
              <div key={c.field} class="break-all font-mono">
                {c.field}: {show(c.old)} → {show(c.new)}
              </div>
            ))}
          </li>
        ))}
        {page?.items.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
      </ul>
    </div>
  );
}
