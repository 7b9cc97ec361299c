import { EmptyRow } from "../components/EmptyRow.tsx";
import { del } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { formatBytes, formatDuration, formatHashrate, formatTime } from "../lib/format.ts";
import { hasKey, t } from "../lib/i18n.ts";
import type { FleetStat, RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { LINK, TD, TH } from "../lib/ui.ts";

interface Props {
  list: RemoteClient[];
  onPorts: (c: RemoteClient) => void;
  onEdit: (c: RemoteClient) => void;
  onPin: (c: RemoteClient) => void;
  onReload: () => void;
}

const STATE_CLASS: Record<RemoteClient["state"], string> = {
  pending: "text-mute",
  online: "text-ok",
  offline: "text-bad",
  unpinned: "text-warn",
  refused: "text-bad",
};

function State({ c }: { c: RemoteClient }) {
  return (
    <span class={STATE_CLASS[c.state]} title={c.error} data-state={c.state}>
      {t(`remote.state_${c.state}`)}
      {c.state === "offline" && c.since && (
        <span class="block text-xs">{t("remote.since", { time: formatTime(c.since) })}</span>
      )}
    </span>
  );
}

function Pin({ c, onPin }: { c: RemoteClient; onPin: () => void }) {
  if (!c.pinned || c.state === "refused")
    return (
      <span class="space-x-1">
        <span class="text-warn">{t(c.pinned ? "remote.cert_changed" : "remote.not_pinned")}</span>
        <button type="button" class={LINK} onClick={onPin}>
          {t("remote.pin")}
        </button>
      </span>
    );
  return (
    <code class="text-xs" title={c.fingerprint}>
      {c.fingerprint.slice(0, 23)}…
    </code>
  );
}

/** Hashrate of each coin the remote mines (coins count in their own units, so they are not summed). */
function hashrate(s: FleetStat): string {
  if (!s.hashrate?.length) return "-";
  return s.hashrate.map((h) => `${h.coin} ${formatHashrate(h.current)}`).join(", ");
}

/** The remote's alert state: the episodes firing now by kind, or none (with the rules it has on). */
function Alerts({ s }: { s: FleetStat }) {
  const a = s.alerts;
  if (!a) return <>-</>;
  if (a.firing)
    return (
      <span class="text-bad" data-firing={a.firing}>
        {t("remote.alerts_firing", { n: a.firing })}:{" "}
        {(a.kinds ?? [])
          .map((k) => (hasKey(`remote.alert_kind.${k}`) ? t(`remote.alert_kind.${k}`) : k))
          .join(", ")}
      </span>
    );
  const rules = [
    a.device_offline ? t("remote.alert_offline") : "",
    a.hashrate_drop > 0 ? t("remote.alert_drop", { pct: a.hashrate_drop }) : "",
  ].filter(Boolean);
  return (
    <span class="text-ok" data-firing={0} title={rules.join(", ") || t("remote.alerts_off")}>
      {t("remote.alerts_quiet")}
    </span>
  );
}

/**
 * The fleet: each remote's pinned certificate, state (offline since when), version, hashrate, devices,
 * ports and alert rules, and its system readings, as the background refresh last read them.
 */
export function ClientTable({ list, onPorts, onEdit, onPin, onReload }: Props) {
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
    "remote.certificate",
    "remote.state",
    "remote.version",
    "dash.uptime",
    "remote.hashrate",
    "dash.active_devices",
    "remote.ports_col",
    "remote.alerts",
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
          {list.map((c) => {
            const s = c.state === "online" ? c.stat : undefined;
            return (
              <tr key={c.id} class="border-t border-line" data-remote={c.id}>
                <td class={TD}>{c.remark}</td>
                <td class={`${TD} font-mono text-xs`}>{c.address}</td>
                <td class={TD}>
                  <Pin c={c} onPin={() => onPin(c)} />
                </td>
                <td class={TD}>
                  <State c={c} />
                </td>
                <td class={TD}>{c.version?.version ?? "-"}</td>
                <td class={TD}>{s ? formatDuration(s.uptime_seconds) : "-"}</td>
                <td class={TD} data-col="hashrate">
                  {s ? hashrate(s) : "-"}
                </td>
                <td class={TD} data-col="devices">
                  {s ? (s.devices?.online ?? s.online) : "-"}
                </td>
                <td class={TD} data-col="ports">
                  {s ? `${s.ports.active} / ${s.ports.total}` : "-"}
                </td>
                <td class={TD} data-col="alerts">
                  {s ? <Alerts s={s} /> : "-"}
                </td>
                <td class={TD}>{s ? `${s.cpu.toFixed(1)}%` : "-"}</td>
                <td class={TD}>{s ? `${s.memory.usage_percent.toFixed(1)}%` : "-"}</td>
                <td class={TD}>
                  {s ? `↑${formatBytes(s.network.tx_rate)}/s ↓${formatBytes(s.network.rx_rate)}/s` : "-"}
                </td>
                <td class={`${TD} space-x-2`}>
                  {c.state === "online" && (
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
            );
          })}
          {list.length === 0 && <EmptyRow cols={cols.length} text={t("remote.none")} />}
        </tbody>
      </table>
    </div>
  );
}
