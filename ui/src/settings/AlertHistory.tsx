import { EmptyRow } from "../components/EmptyRow.tsx";
import { get } from "../lib/api.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import type { AlertHistory as History } from "./alert-types.ts";

/** Alert episodes, newest first, each firing or resolved; the text is the pushed one, in the console's language. */
export function AlertHistory() {
  const [history] = useFetch(() => get<History>("/api/warning/history?limit=200"), [], 10_000);
  const queue = history?.queue;
  return (
    <div data-testid="alert-history">
      <h3 class="mb-1 text-sm font-semibold">{t("alert.history")}</h3>
      {queue && queue.pending > 0 && (
        <p class="mb-1 text-xs text-warn">
          {t("alert.queue", { n: queue.pending, error: queue.last_error })}
        </p>
      )}
      <div class="max-h-96 overflow-y-auto">
        <table class="w-full text-xs">
          <thead>
            <tr>
              <th class={TH}>{t("alert.state")}</th>
              <th class={TH}>{t("alert.message")}</th>
              <th class={TH}>{t("alert.fired_at")}</th>
              <th class={TH}>{t("alert.resolved_at")}</th>
            </tr>
          </thead>
          <tbody>
            {(history?.items ?? []).map((a) => (
              <tr key={a.id} class="border-t border-line" data-state={a.state}>
                <td class={`${TD} ${a.state === "firing" ? "text-bad" : "text-ok"}`}>
                  {t(a.state === "firing" ? "alert.state_firing" : "alert.state_resolved")}
                </td>
                <td class="px-2 py-1.5">{t(a.key, a.vars)}</td>
                <td class={TD}>{formatTime(a.fired_at)}</td>
                <td class={TD}>{a.resolved_at === null ? "" : formatTime(a.resolved_at)}</td>
              </tr>
            ))}
            {history?.items.length === 0 && <EmptyRow cols={4} text={t("alert.history_empty")} />}
          </tbody>
        </table>
      </div>
    </div>
  );
}
