import { useEffect, useState } from "preact/hooks";
import { get } from "../lib/api.ts";
import { coinLabel, hashUnit, visibleCoins } from "../lib/coins.ts";
import { formatDuration, formatHashrate } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { AVG_WINDOWS, appendSample, averageFor, type Columns } from "../lib/series.ts";
import { currency } from "../lib/session.ts";
import type { CurrencyStats } from "../lib/sys-types.ts";
import { useStore } from "../lib/use-store.ts";
import { ChartView } from "./ChartView.tsx";

const POLL_MS = 10_000;

/** Hashrate of one coin over time, with two average windows (uPlot, loaded on demand). */
export function HashChart() {
  const p = useStore(prefs);
  const cfg = useStore(currency);
  const coins = visibleCoins(cfg);
  const coin = p.chart3select;
  const unit = hashUnit(cfg[coin]);
  const [stats, setStats] = useState<CurrencyStats | null>(null);
  const [cols, setCols] = useState<Columns>({ t: [], h: [] });
  useEffect(() => {
    setCols({ t: [], h: [] });
    const load = () =>
      get<CurrencyStats>(`/api/stat/currency/${encodeURIComponent(coin)}`)
        .then((s) => {
          setStats(s);
          setCols((c) =>
            s.series ? s.series : appendSample(c, Math.floor(Date.now() / 1000), s.hashrate.current),
          );
        })
        .catch(() => undefined);
    load();
    const id = setInterval(load, POLL_MS);
    return () => clearInterval(id);
  }, [coin]);
  const a1 = averageFor(stats?.hashrate, p.defaultAves1);
  const a2 = averageFor(stats?.hashrate, p.defaultAves2);
  const sel = "rounded border border-line bg-panel2 px-1 py-0.5 text-sm text-fg";
  const winLabel = (w: number) =>
    formatDuration(w, { d: t("unit.d"), h: t("unit.h"), m: t("unit.m"), s: t("unit.s") });
  return (
    <div data-testid="hash-chart">
      <div class="mb-2 flex flex-wrap items-center gap-2">
        <h2 class="mr-auto text-sm font-semibold">{t("dash.hashrate")}</h2>
        <label class="text-xs text-mute">
          {t("dash.coin")}{" "}
          <select class={sel} value={coin} onChange={(e) => setPref("chart3select", e.currentTarget.value)}>
            {(coins.length ? coins : [coin]).map((c) => (
              <option key={c} value={c}>
                {coinLabel(c, t("lang.coin.nginx"))}
              </option>
            ))}
          </select>
        </label>
        {(["defaultAves1", "defaultAves2"] as const).map((k, i) => (
          <label key={k} class="text-xs text-mute">
            {t("dash.avg", { n: i + 1 })}{" "}
            <select class={sel} value={p[k]} onChange={(e) => setPref(k, Number(e.currentTarget.value))}>
              {AVG_WINDOWS.map((w) => (
                <option key={w} value={w}>
                  {winLabel(w)}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div class="mb-2 flex flex-wrap gap-4 text-sm">
        <span>
          {t("dash.current")}: <b>{formatHashrate(stats?.hashrate.current ?? 0, unit)}</b>
        </span>
        <span>
          {winLabel(p.defaultAves1)}: <b>{formatHashrate(a1, unit)}</b>
        </span>
        <span>
          {winLabel(p.defaultAves2)}: <b>{formatHashrate(a2, unit)}</b>
        </span>
        <span class="text-mute">
          {t("dash.online")}: {stats?.online ?? 0}
        </span>
      </div>
      <ChartView cols={cols} avg1={a1} avg2={a2} unit={unit} />
    </div>
  );
}
