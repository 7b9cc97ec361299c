import { StatCard } from "../dashboard/StatCard.tsx";
import { get } from "../lib/api.ts";
import type { PortStatsView } from "../lib/device-types.ts";
import { formatHashrate, formatPercent } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { useFetch } from "../lib/useFetch.ts";

/** Port figures: online devices, hashrate, pumped hashrate, latency, configured vs achieved fee. */
export function FeeSummary({ portId }: { portId: number }) {
  const [s] = useFetch(() => get<PortStatsView>(`/api/stat/port/${portId}`), [portId], 10_000);
  return (
    <div class="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6" data-testid="fee-summary">
      <StatCard label={t("inside.online")} value={`${s?.online ?? 0} / ${s?.devices ?? 0}`} />
      <StatCard
        label={t("inside.hashrate")}
        value={formatHashrate(s?.hashrate.current ?? 0)}
        sub={`15m ${formatHashrate(s?.hashrate.m15 ?? 0)}`}
      />
      <StatCard label={t("inside.pumped")} value={formatHashrate(s?.pumped.current ?? 0)} />
      <StatCard
        label={t("dash.latency")}
        value={s?.latencyMs ? `${s.latencyMs} ms` : "-"}
        sub={s ? t(`inside.upstream_${s.upstream}`) : ""}
      />
      <StatCard label={t("inside.fee_configured")} value={formatPercent(s?.fee.configured ?? 0)} />
      <StatCard label={t("inside.fee_achieved")} value={formatPercent(s?.fee.achieved ?? 0)} />
    </div>
  );
}
