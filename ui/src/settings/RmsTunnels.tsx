import type { TunnelView as Tunnel } from "../../../appliance/domain/rms.ts";
import { EmptyRow } from "../components/EmptyRow.tsx";
import { get } from "../lib/api.ts";
import { formatBytes, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { BTN_GHOST, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** How many times smaller the link's records were than what the streams carried. */
const ratio = (x: Tunnel): string => {
  const link = x.linkIn + x.linkOut;
  return link > 0 ? `${((x.streamIn + x.streamOut) / link).toFixed(1)}×` : "-";
};

/** The farms connected to this appliance's tunnel ports, refreshed every 10 s. */
export function RmsTunnels() {
  const [rows, reload] = useFetch(
    () => get<{ items: Tunnel[] }>("/api/rms/tunnels", { quiet: true }).then((r) => r.items),
    [],
    10_000,
  );
  const bytes = (a: number, b: number) => `${formatBytes(a)} / ${formatBytes(b)}`;
  return (
    <div class="sm:col-span-2" data-testid="rms-tunnels">
      <div class="mb-1 flex items-center justify-between">
        <h3 class="text-sm font-semibold">{t("rms.tunnels")}</h3>
        <button type="button" class={BTN_GHOST} onClick={reload}>
          {t("common.refresh")}
        </button>
      </div>
      <div class="overflow-x-auto">
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>{t("rms.client_name")}</th>
              <th class={TH}>{t("rms.address")}</th>
              <th class={TH}>{t("port.port")}</th>
              <th class={TH}>{t("rms.streams")}</th>
              <th class={TH} title={t("rms.in_out_hint")}>
                {t("rms.link_bytes")}
              </th>
              <th class={TH} title={t("rms.in_out_hint")}>
                {t("rms.stream_bytes")}
              </th>
              <th class={TH}>{t("rms.compression")}</th>
              <th class={TH}>{t("rms.since")}</th>
              <th class={TH}>{t("rms.last_resume")}</th>
            </tr>
          </thead>
          <tbody>
            {(rows ?? []).map((x) => (
              <tr key={`${x.portId}-${x.since}-${x.address}`} class="border-t border-line">
                <td class={TD}>
                  {x.name || "-"}
                  {!x.connected && <span class="ml-1 text-xs text-warn">{t("rms.waiting_resume")}</span>}
                </td>
                <td class={`${TD} font-mono`}>{x.address}</td>
                <td class={TD}>
                  {x.port} {x.variant}
                </td>
                <td class={TD}>{x.streams}</td>
                <td class={TD}>{bytes(x.linkIn, x.linkOut)}</td>
                <td class={TD}>{bytes(x.streamIn, x.streamOut)}</td>
                <td class={TD}>{ratio(x)}</td>
                <td class={TD}>{formatTime(x.since)}</td>
                <td class={TD}>{x.lastResume === null ? "-" : formatTime(x.lastResume)}</td>
              </tr>
            ))}
            {rows?.length === 0 && <EmptyRow cols={9} text={t("rms.no_tunnels")} />}
          </tbody>
        </table>
      </div>
    </div>
  );
}
