import { EmptyRow } from "../components/EmptyRow.tsx";
import { get } from "../lib/api.ts";
import type { IpView } from "../lib/device-types.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** Connection log: addresses that connected to the port. */
export function IpList({ portId }: { portId: number }) {
  const [rows] = useFetch(() => get<IpView[]>(`/api/port/${portId}/ips`), [portId]);
  return (
    <div class="overflow-x-auto rounded-lg border border-line bg-panel">
      <table class="w-full text-sm">
        <thead>
          <tr>
            <th class={TH}>IP</th>
            <th class={TH}>{t("inside.connections")}</th>
            <th class={TH}>{t("inside.devices")}</th>
            <th class={TH}>{t("inside.last_seen")}</th>
          </tr>
        </thead>
        <tbody>
          {(rows ?? []).map((r) => (
            <tr key={r.ip} class="border-t border-line">
              <td class={`${TD} font-mono`}>{r.ip}</td>
              <td class={TD}>{r.connections}</td>
              <td class={TD}>{r.devices}</td>
              <td class={TD}>{formatTime(r.lastSeen)}</td>
            </tr>
          ))}
          {rows?.length === 0 && <EmptyRow cols={4} text={t("common.empty")} />}
        </tbody>
      </table>
    </div>
  );
}
