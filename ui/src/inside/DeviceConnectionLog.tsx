import { EmptyRow } from "../components/EmptyRow.tsx";
import type { ConnectionEvent } from "../lib/device-types.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { TD, TH } from "../lib/ui.ts";

/** A device's last connects and disconnects, newest first (spec §1, "device connection log"). */
export function DeviceConnectionLog({ events, ip }: { events: ConnectionEvent[] | null; ip: string }) {
  return (
    <section class="mt-3" aria-label={t("device.connection_log")}>
      <h3 class="mb-1 text-sm font-semibold">{t("device.connection_log")}</h3>
      <div class="max-h-56 overflow-y-auto rounded border border-line">
        <table class="w-full text-sm" data-testid="device-connection-log">
          <thead>
            <tr>
              <th class={TH}>{t("device.event_time")}</th>
              <th class={TH}>{t("device.event")}</th>
              <th class={TH}>IP</th>
            </tr>
          </thead>
          <tbody>
            {(events ?? []).map((e, i) => (
              <tr key={`${e.at}-${i}`} class="border-t border-line">
                <td class={TD}>{formatTime(e.at)}</td>
                <td class={`${TD} ${e.event === "connect" ? "text-ok" : "text-mute"}`}>
                  {t(e.event === "connect" ? "device.connected" : "device.disconnected")}
                </td>
                <td class={`${TD} font-mono text-xs`}>{ip}</td>
              </tr>
            ))}
            {events !== null && events.length === 0 && (
              <EmptyRow cols={3} text={t("device.no_connections")} />
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
