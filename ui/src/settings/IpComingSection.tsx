import { EmptyRow } from "../components/EmptyRow.tsx";
import { get } from "../lib/api.ts";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

interface Access {
  ip: string;
  port: number;
  connections?: number;
  lastSeen?: number;
}

/** All-port IP access records, the latest 100. */
export function IpComingSection() {
  const [rows] = useFetch(() => get<Access[]>("/api/ip/coming"), []);
  return (
    <table class="w-full text-sm">
      <thead>
        <tr>
          <th class={TH}>IP</th>
          <th class={TH}>{t("port.port")}</th>
          <th class={TH}>{t("inside.connections")}</th>
          <th class={TH}>{t("inside.last_seen")}</th>
        </tr>
      </thead>
      <tbody>
        {(rows ?? []).map((r) => (
          <tr key={`${r.ip}-${r.port}`} class="border-t border-line">
            <td class={`${TD} font-mono`}>{r.ip}</td>
            <td class={TD}>{r.port}</td>
            <td class={TD}>{r.connections ?? "-"}</td>
            <td class={TD}>{formatTime(r.lastSeen)}</td>
          </tr>
        ))}
        {rows?.length === 0 && <EmptyRow cols={4} text={t("common.empty")} />}
      </tbody>
    </table>
  );
}
