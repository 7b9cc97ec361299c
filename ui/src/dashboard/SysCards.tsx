import { get } from "../lib/api.ts";
import { formatBytes, formatDuration } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { DeviceStats, SysStat } from "../lib/sys-types.ts";
import { useFetch } from "../lib/useFetch.ts";
import { StatCard } from "./StatCard.tsx";

/** Devices, latency, traffic, disk, memory, CPU, load and uptime; refreshed every 10 s. */
export function SysCards() {
  const [s] = useFetch(() => get<SysStat>("/api/sys/stat"), [], 10_000);
  const [d] = useFetch(() => get<DeviceStats>("/api/device/stats"), [], 10_000);
  const labels = { d: t("unit.d"), h: t("unit.h"), m: t("unit.m"), s: t("unit.s") };
  const pct = (n: number | undefined) => `${(n ?? 0).toFixed(1)}%`;
  return (
    <div class="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-8" data-testid="sys-cards">
      <StatCard label={t("dash.active_devices")} value={String(d?.online ?? 0)} />
      <StatCard label={t("dash.offline_devices")} value={String(d?.offline ?? 0)} />
      <StatCard
        label={t("dash.traffic_up")}
        value={`${formatBytes(s?.network.tx_rate ?? 0)}/s`}
        sub={formatBytes(s?.network.tx ?? 0)}
      />
      <StatCard
        label={t("dash.traffic_down")}
        value={`${formatBytes(s?.network.rx_rate ?? 0)}/s`}
        sub={formatBytes(s?.network.rx ?? 0)}
      />
      <StatCard label={t("dash.cpu")} value={pct(s?.cpu)} bar={s?.cpu} />
      <StatCard
        label={t("dash.memory")}
        value={pct(s?.memory.usage_percent)}
        bar={s?.memory.usage_percent}
        sub={`${formatBytes(s?.memory.used ?? 0)} / ${formatBytes(s?.memory.total ?? 0)}`}
      />
      <StatCard
        label={t("dash.disk")}
        value={pct(s?.disk.usage_percent)}
        bar={s?.disk.usage_percent}
        sub={`${formatBytes(s?.disk.used ?? 0)} / ${formatBytes(s?.disk.total ?? 0)}`}
      />
      <StatCard
        label={t("dash.load")}
        value={s ? s.load.one.toFixed(2) : "-"}
        sub={s ? `${s.load.five.toFixed(2)} · ${s.load.fifteen.toFixed(2)}` : ""}
      />
      <StatCard label={t("dash.uptime")} value={s ? formatDuration(s.uptime_seconds, labels) : "-"} />
      <StatCard label={t("dash.ports")} value={s ? `${s.ports.active} / ${s.ports.total}` : "-"} />
    </div>
  );
}
