import { z } from "zod";
import type { LiveReads } from "../../domain/engine.ts";
import { ok, parseBody } from "../body.ts";
import { notFound } from "../errors.ts";
import type { Route } from "../router.ts";
import { withConfiguredFee } from "./configured-fee.ts";
import { deviceQuery } from "./device-page.ts";
import { coinChartColumns } from "./history.ts";
import { portOr404 } from "./port-guards.ts";

/** Per-port lists: path suffix → registry read. */
const PORT_LISTS: [string, (live: LiveReads, portId: number, query: URLSearchParams) => Promise<unknown>][] =
  [
    ["workers", (l, id, q) => l.workerList(id, deviceQuery(q))],
    ["log", (l, id) => l.portLog(id)],
    ["ips", (l, id) => l.portIps(id)],
    ["g/workers", (l, id) => l.groupWorkers(id)],
    ["g/wallet/list", (l, id) => l.walletList(id)],
  ];

/**
 * Calls that read live proxy state from the engine's in-memory registry (spec §7). They answer
 * with what is connected now: empty lists when no device is.
 */
export const liveRoutes: Route[] = [
  ...PORT_LISTS.map(
    ([suffix, read]): Route => ({
      method: "GET",
      path: `/api/port/:id/${suffix}`,
      handler: async ({ app, params, url }) =>
        Response.json(await read(app.engine.live, portOr404(app, params.id).id, url.searchParams)),
    }),
  ),
  {
    method: "GET",
    path: "/api/port/:id/g/wallets/:collect",
    handler: async ({ app, params }) => {
      // collect = 1: only the starred wallets; 0: all wallets, each marked.
      const port = portOr404(app, params.id);
      const starred = new Set(app.favourites.list(port.id));
      const rows = (await app.engine.live.walletList(port.id)).map((w) => ({
        ...w,
        collect: starred.has(w.wallet),
      }));
      return Response.json(params.collect === "1" ? rows.filter((w) => w.collect) : rows);
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/wallet/collect",
    handler: async ({ app, req, params }) => {
      const port = portOr404(app, params.id);
      const body = await parseBody(
        req,
        z.object({
          wallet: z.string("lang.err.params").trim().min(1, "lang.err.params"),
          collect: z.boolean().default(true),
        }),
      );
      app.favourites.set(port.id, body.wallet, body.collect);
      return ok();
    },
  },
  {
    method: "GET",
    path: "/api/stat/worker/:id",
    handler: async ({ app, params }) => {
      const worker = await app.engine.live.worker(params.id ?? "");
      if (worker === null) throw notFound("lang.err.device_missing");
      return Response.json(worker);
    },
  },
  {
    method: "GET",
    path: "/api/stat/port/:id",
    handler: async ({ app, params }) => {
      const port = portOr404(app, params.id);
      const running = app.engine.runState(port.id) === "active";
      return Response.json(withConfiguredFee(await app.engine.live.portStats(port.id), port, running));
    },
  },
  {
    method: "GET",
    path: "/api/stat/currency/:currency",
    handler: async ({ app, params }) => {
      const coin = params.currency ?? "";
      return Response.json({
        ...(await app.engine.live.currencyStats(coin)),
        series: coinChartColumns(app, coin),
      });
    },
  },
  {
    method: "GET",
    path: "/api/device/stats",
    handler: async ({ app }) => Response.json(await app.engine.live.deviceStats()),
  },
  {
    method: "GET",
    path: "/api/currency/online/stat/:coin",
    handler: async ({ app, params }) => Response.json(await app.engine.live.onlineStat(params.coin ?? "")),
  },
];
