import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import css from "uplot/dist/uPlot.min.css";
import { formatHashrate, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import type { Columns } from "../lib/series.ts";

let styled = false;
function injectCss() {
  if (styled) return;
  styled = true;
  const el = document.createElement("style");
  el.textContent = `${css}.uplot{font-family:inherit;color:var(--fg)}.u-legend{font-size:12px}`;
  document.head.appendChild(el);
}

/** Seconds the time axis spans at least: an empty chart or a single sample shows the last ten minutes. */
const MIN_SPAN_S = 600;

/**
 * The time axis. With two samples or more, their span (or the part the operator zoomed to), at least
 * MIN_SPAN_S. With one sample or none uPlot has no span: for a single point it adds a day counted in
 * milliseconds to our seconds (the axis ran 1000 days ahead, to 2029); for none it has nothing. Those
 * show the last MIN_SPAN_S, up to the sample or to now.
 */
function timeRange(xs: ArrayLike<number>, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (xs.length <= 1 || min === null || max === null) {
    const end = xs.length === 1 ? (xs[0] ?? 0) : Math.floor(Date.now() / 1000);
    return [end - MIN_SPAN_S, end];
  }
  return [Math.min(min, max - MIN_SPAN_S), max];
}

interface Props {
  cols: Columns;
  avg1: number;
  avg2: number;
  /** what the coin's hashrate counts (formatHashrate) */
  unit: string;
}

/**
 * The uPlot canvas: hashrate samples plus two flat average lines; redraws once per data batch. Its
 * accessible name tells the time span the axis shows.
 */
export function ChartView({ cols, avg1, avg2, unit }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = (): uPlot.AlignedData => [cols.t, cols.h, cols.t.map(() => avg1), cols.t.map(() => avg2)];
  useEffect(() => {
    injectCss();
    const el = box.current;
    if (!el) return;
    const rate = (v: number | null) => (v == null ? "-" : formatHashrate(v, unit));
    const named = (u: uPlot) =>
      el.setAttribute(
        "aria-label",
        t("dash.chart_span", {
          from: formatTime(u.scales.x?.min ?? null),
          to: formatTime(u.scales.x?.max ?? null),
        }),
      );
    const axis = {
      stroke: "var(--mute)",
      grid: { stroke: "rgba(128,128,128,.15)" },
      ticks: { stroke: "rgba(128,128,128,.3)" },
    };
    plot.current = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 240,
        scales: { x: { time: true, range: (u, min, max) => timeRange(u.data[0], min, max) } },
        hooks: { setScale: [(u, key) => key === "x" && named(u)] },
        series: [
          {},
          {
            label: t("dash.current"),
            stroke: "#f0a030",
            width: 2,
            value: (_u, v) => rate(v),
          },
          {
            label: t("dash.avg", { n: 1 }),
            stroke: "#3fb950",
            dash: [6, 4],
            value: (_u, v) => rate(v),
          },
          {
            label: t("dash.avg", { n: 2 }),
            stroke: "#58a6ff",
            dash: [2, 4],
            value: (_u, v) => rate(v),
          },
        ],
        axes: [axis, { ...axis, size: 80, values: (_u, vals) => vals.map(rate) }],
      },
      data(),
      el,
    );
    const onResize = () => plot.current?.setSize({ width: el.clientWidth, height: 240 });
    window.addEventListener("resize", onResize);
    return () => {
      window.removeEventListener("resize", onResize);
      plot.current?.destroy();
      plot.current = null;
    };
  }, [unit]);
  useEffect(() => {
    plot.current?.setData(data());
  });
  return <div ref={box} class="w-full" role="img" aria-label={t("dash.hashrate")} />;
}
