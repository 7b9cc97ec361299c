import { get } from "../lib/api.ts";
import type { PortLogEntry } from "../lib/device-types.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { useFetch } from "../lib/useFetch.ts";

const LEVEL = { info: "text-mute", warn: "text-warn", error: "text-bad" };

/** The port's own log. */
export function PortLog({ portId }: { portId: number }) {
  const [rows] = useFetch(() => get<PortLogEntry[]>(`/api/port/${portId}/log`), [portId], 15_000);
  return (
    <ul
      class="max-h-[60vh] overflow-y-auto rounded-lg border border-line bg-panel p-2 font-mono text-xs"
      data-testid="port-log"
    >
      {(rows ?? []).map((r, i) => (
        <li key={`${r.at}-${i}`} class="flex gap-2">
          <span class="shrink-0 text-mute">{formatTime(r.at)}</span>
          <span class={`shrink-0 uppercase ${LEVEL[r.level] ?? ""}`}>{r.level}</span>
          <span class="break-all">{r.message}</span>
        </li>
      ))}
      {rows?.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
    </ul>
  );
}
