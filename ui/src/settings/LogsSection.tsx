import { useState } from "preact/hooks";
import { Tabs } from "../components/Tabs.tsx";
import { get } from "../lib/api.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { LogEntry } from "../lib/sys-types.ts";
import { useFetch } from "../lib/useFetch.ts";

const KINDS = ["running", "error", "update", "request"] as const;

/** Runtime, error, update and request logs. */
export function LogsSection() {
  const [kind, setKind] = useState<string>("running");
  const [rows] = useFetch(() => get<LogEntry[]>(`/api/${kind}/log?limit=200`), [kind]);
  return (
    <div>
      <Tabs active={kind} onSelect={setKind} tabs={KINDS.map((k) => ({ key: k, label: t(`logs.${k}`) }))} />
      <ul class="max-h-80 overflow-y-auto font-mono text-xs" data-testid="logs">
        {(rows ?? []).map((r) => (
          <li key={r.id} class="flex gap-2">
            <span class="shrink-0 text-mute">{formatTime(r.at)}</span>
            <span class="break-all">{r.message}</span>
          </li>
        ))}
        {rows?.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
      </ul>
    </div>
  );
}
