import { get } from "../lib/api.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { LogEntry } from "../lib/sys-types.ts";
import { CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** The operation log, newest first. */
export function OpLog() {
  const [rows] = useFetch(() => get<LogEntry[]>("/api/operation/log?limit=50"), [], 30_000);
  return (
    <section class={CARD} aria-label={t("dash.oplog")}>
      <h2 class="mb-2 text-sm font-semibold">{t("dash.oplog")}</h2>
      <ul class="max-h-64 space-y-0.5 overflow-y-auto font-mono text-xs" data-testid="oplog">
        {(rows ?? []).map((r) => (
          <li key={r.id} class="flex gap-2">
            <span class="shrink-0 text-mute">{formatTime(r.at)}</span>
            <span class="shrink-0 text-mute">{r.address}</span>
            <span class="min-w-0 break-words">{r.message}</span>
          </li>
        ))}
        {rows && rows.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
      </ul>
    </section>
  );
}
