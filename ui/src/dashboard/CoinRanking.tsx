import { CoinBadge } from "../components/CoinBadge.tsx";
import { coinLabel } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { listPorts } from "../lib/port-api.ts";
import { coinActivity } from "../lib/ports.ts";
import { CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** Coins ranked by online devices, with port count and average latency. */
export function CoinRanking() {
  const [items] = useFetch(listPorts, [], 15_000);
  const rows = coinActivity(items ?? []);
  const delays = rows.filter((r) => r.delay > 0);
  const avg = delays.length ? Math.round(delays.reduce((a, r) => a + r.delay, 0) / delays.length) : 0;
  return (
    <section class={CARD} aria-label={t("dash.ranking")}>
      <div class="mb-2 flex items-baseline justify-between gap-2">
        <h2 class="text-sm font-semibold">{t("dash.ranking")}</h2>
        <span class="text-xs text-mute" data-testid="latency">
          {t("dash.latency")}: {avg ? `${avg} ms` : "-"}
        </span>
      </div>
      <ol class="space-y-1 text-sm" data-testid="coin-ranking">
        {rows.map((r, i) => (
          <li key={r.coin} class="flex items-center gap-2">
            <span class="w-5 text-mute">{i + 1}</span>
            <CoinBadge coin={r.coin} size={18} />
            <span class="flex-1 truncate">{coinLabel(r.coin, t("lang.coin.nginx"))}</span>
            <span title={t("dash.online")}>{r.online}</span>
            <span class="w-16 text-right text-xs text-mute" title={t("dash.latency")}>
              {r.delay ? `${r.delay} ms` : "-"}
            </span>
          </li>
        ))}
        {rows.length === 0 && <li class="text-mute">{t("dash.no_ports")}</li>}
      </ol>
    </section>
  );
}
