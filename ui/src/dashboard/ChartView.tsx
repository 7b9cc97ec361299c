import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import css from "uplot/dist/uPlot.min.css";
import { formatHashrate } from "../lib/format.ts";
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

/** The uPlot canvas: hashrate samples plus two flat average lines; redraws once per data batch. */
export function ChartView({ cols, avg1, avg2 }: { cols: Columns; avg1: number; avg2: number }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = (): uPlot.AlignedData => [cols.t, cols.h, cols.t.map(() => avg1), cols.t.map(() => avg2)];
  useEffect(() => {
    injectCss();
    const el = box.current;
    if (!el) return;
    const axis = {
      stroke: "var(--mute)",
      grid: { stroke: "rgba(128,128,128,.15)" },
      ticks: { stroke: "rgba(128,128,128,.3)" },
    };
    plot.current = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 240,
        scales: { x: { time: true, range: (_u, min, max) => [Math.min(min, max - 600), max] } },
        series: [
          {},
          {
            label: t("dash.current"),
            stroke: "#f0a030",
            width: 2,
            value: (_u, v) => (v == null ? "-" : formatHashrate(v)),
          },
          {
            label: t("dash.avg", { n: 1 }),
            stroke: "#3fb950",
            dash: [6, 4],
            value: (_u, v) => (v == null ? "-" : formatHashrate(v)),
          },
          {
            label: t("dash.avg", { n: 2 }),
            stroke: "#58a6ff",
            dash: [2, 4],
            value: (_u, v) => (v == null ? "-" : formatHashrate(v)),
          },
        ],
        axes: [axis, { ...axis, size: 80, values: (_u, vals) => vals.map((v) => formatHashrate(v)) }],
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
  }, []);
  useEffect(() => {
    plot.current?.setData(data());
  });
  return <div ref={box} class="w-full" role="img" aria-label={t("dash.hashrate")} />;
}
