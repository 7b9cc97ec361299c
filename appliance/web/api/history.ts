import type { SeriesPoint } from "../../stats/series-store.ts";
import type { AppContext } from "../app-context.ts";
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";
import { portOr404 } from "./port-guards.ts";

const DAY_MS = 24 * 3600_000;

/** ?res=minute|hour&from=ms&to=ms; minute buckets cover the last 24 h, hour buckets 30 days. */
function window(url: URL): { res: "minute" | "hour"; from: number; to: number } {
  const res = url.searchParams.get("res") ?? "minute";
  if (res !== "minute" && res !== "hour") throw badRequest("lang.err.params", { field: "res" });
  const to = Number(url.searchParams.get("to") ?? Date.now());
  const from = Number(url.searchParams.get("from") ?? to - (res === "minute" ? DAY_MS : 30 * DAY_MS));
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to)
    throw badRequest("lang.err.params", { field: "from" });
  return { res, from, to };
}

/** Adds the points of several ports bucket by bucket (a coin's chart is the sum of its ports). */
function sum(series: SeriesPoint[][]): SeriesPoint[] {
  const byTime = new Map<number, SeriesPoint>();
  for (const points of series) {
    for (const p of points) {
      const acc = byTime.get(p.at);
      if (!acc) byTime.set(p.at, { ...p });
      else {
        acc.hashrate += p.hashrate;
        acc.feeHashrate += p.feeHashrate;
        acc.valid += p.valid;
        acc.invalid += p.invalid;
        acc.stale += p.stale;
      }
    }
  }
  return [...byTime.values()].sort((a, b) => a.at - b.at);
}

function coinSeries(app: AppContext, coin: string, url: URL): SeriesPoint[] {
  const { res, from, to } = window(url);
  const ports = app.ports.list().filter((p) => p.currency === coin);
  return sum(ports.map((p) => app.series.read(p.id, "", res, from, to)));
}

/**
 * The last 24 h of a coin as chart columns (uPlot's shape: unix seconds and H/s), or undefined while
 * nothing has been persisted yet (the console then plots live samples).
 */
export function coinChartColumns(app: AppContext, coin: string): { t: number[]; h: number[] } | undefined {
  const points = coinSeries(app, coin, new URL("http://local/"));
  if (points.length === 0) return undefined;
  return { t: points.map((p) => Math.floor(p.at / 1000)), h: points.map((p) => p.hashrate) };
}

/**
 * Hashrate history for the dashboard chart and the port page (persisted roll-ups; the live
 * figures come from the /api/stat calls). Points: {at, hashrate, feeHashrate, valid, invalid, stale}.
 */
export const historyRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/stat/port/:id/series",
    handler: ({ app, params, url }) => {
      const port = portOr404(app, params.id);
      const { res, from, to } = window(url);
      return Response.json(app.series.read(port.id, url.searchParams.get("device") ?? "", res, from, to));
    },
  },
  {
    method: "GET",
    path: "/api/stat/currency/:coin/series",
    handler: ({ app, params, url }) => Response.json(coinSeries(app, params.coin ?? "", url)),
  },
];
