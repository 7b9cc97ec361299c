import { StatCard } from "../dashboard/StatCard.tsx";
import { get } from "../lib/api.ts";
import type { PortStatsView } from "../lib/device-types.ts";
import { formatHashrate, formatPercent, formatPoints } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { useFetch } from "../lib/useFetch.ts";
import { FeeAuditExport } from "./FeeAuditExport.tsx";
import { FeeWallets } from "./FeeWallets.tsx";

/**
 * Port figures: online devices, hashrate, pumped hashrate, latency; configured, target, achieved and
 * gap of the fee for the port and each wallet; the fee audit export.
 */
export function FeeSummary({ portId, unit }: { portId: number; unit: string }) {
  const [s] = useFetch(() => get<PortStatsView>(`/api/stat/port/${portId}`), [portId], 10_000);
  return (
    <div class="space-y-2" data-testid="fee-summary">
      <div class="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-8">
        <StatCard label={t("inside.online")} value={`${s?.online ?? 0} / ${s?.devices ?? 0}`} />
        <StatCard
          label={t("inside.hashrate")}
          value={formatHashrate(s?.hashrate.current ?? 0, unit)}
          sub={`15m ${formatHashrate(s?.hashrate.m15 ?? 0, unit)}`}
        />
        <StatCard label={t("inside.pumped")} value={formatHashrate(s?.pumped.current ?? 0, unit)} />
        <StatCard
          label={t("dash.latency")}
          value={s?.latencyMs ? `${s.latencyMs} ms` : "-"}
          sub={s ? t(`inside.upstream_${s.upstream}`) : ""}
        />
        <StatCard label={t("inside.fee_configured")} value={formatPercent(s?.fee.configured ?? 0)} />
        <StatCard label={t("inside.fee_target")} value={formatPercent(s?.fee.target ?? 0)} />
        <StatCard label={t("inside.fee_achieved")} value={formatPercent(s?.fee.achieved ?? 0)} />
        <StatCard
          label={t("inside.fee_gap")}
          value={t("inside.points", { value: formatPoints(s?.fee.gap ?? 0) })}
          sub={t("inside.fee_gap_sub")}
        />
      </div>
      {s && <FeeWallets fee={s.fee} />}
      <FeeAuditExport portId={portId} />
    </div>
  );
}
