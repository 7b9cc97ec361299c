import { EmptyRow } from "../components/EmptyRow.tsx";
import { del } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { formatBytes, formatDuration } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { LINK, TD, TH } from "../lib/ui.ts";

interface Props {
  list: RemoteClient[];
  onPorts: (c: RemoteClient) => void;
  onEdit: (c: RemoteClient) => void;
  onReload: () => void;
}

/** Remote clients: version, uptime, online devices, state, CPU and memory, traffic. */
export function ClientTable({ list, onPorts, onEdit, onReload }: Props) {
  const remove = async (c: RemoteClient) => {
    if (!(await ask(t("remote.delete_confirm", { name: c.remark }), true))) return;
    await del(`/api/remote/${c.id}`).then(
      () => {
        toast("ok", t("remote.deleted"));
        onReload();
      },
      () => undefined,
    );
  };
  const cols = [
    "remote.remark",
    "remote.address",
    "remote.state",
    "remote.version",
    "dash.uptime",
    "dash.active_devices",
    "dash.cpu",
    "dash.memory",
    "remote.traffic",
    "",
  ];
  return (
    <div class="overflow-x-auto rounded-lg border border-line bg-panel">
      <table class="w-full text-sm" data-testid="client-table">
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c} class={TH}>
                {c ? t(c) : ""}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.map((c) => (
            <tr key={c.id} class="border-t border-line">
              <td class={TD}>{c.remark}</td>
              <td class={`${TD} font-mono text-xs`}>{c.address}</td>
              <td class={TD}>
                <span class={c.online ? "text-ok" : "text-bad"} title={c.error}>
                  {t(c.online ? "device.online" : "device.offline")}
                </span>
              </td>
              <td class={TD}>{c.version?.version ?? "-"}</td>
              <td class={TD}>{c.stat ? formatDuration(c.stat.uptime_seconds) : "-"}</td>
              <td class={TD}>{c.stat?.online ?? "-"}</td>
              <td class={TD}>{c.stat ? `${c.stat.cpu.toFixed(1)}%` : "-"}</td>
              <td class={TD}>{c.stat ? `${c.stat.memory.usage_percent.toFixed(1)}%` : "-"}</td>
              <td class={TD}>
                {c.stat
                  ? `↑${formatBytes(c.stat.network.tx_rate)}/s ↓${formatBytes(c.stat.network.rx_rate)}/s`
                  : "-"}
              </td>
              <td class={`${TD} space-x-2`}>
                {c.online && (
                  <button type="button" class={LINK} onClick={() => onPorts(c)}>
                    {t("remote.ports")}
                  </button>
                )}
                <button type="button" class={LINK} onClick={() => onEdit(c)}>
                  {t("common.edit")}
                </button>
                <button type="button" class={`${LINK} text-bad`} onClick={() => remove(c)}>
                  {t("common.delete")}
                </button>
              </td>
            </tr>
          ))}
          {list.length === 0 && <EmptyRow cols={10} text={t("remote.none")} />}
        </tbody>
      </table>
    </div>
  );
}
