import { z } from "zod";
import { ok, parseBody } from "../body.ts";
import { notFound } from "../errors.ts";
import type { Route } from "../router.ts";
import { portOr404 } from "./port-guards.ts";

/**
 * Calls that read live proxy state from the engine's in-memory registry (spec §7). They answer
 * with what is connected now: empty lists when no device is.
 */
export const liveRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/port/:id/workers",
    handler: ({ app, params }) => Response.json(app.engine.live.workers(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/port/:id/log",
    handler: ({ app, params }) => Response.json(app.engine.live.portLog(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/port/:id/ips",
    handler: ({ app, params }) => Response.json(app.engine.live.portIps(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/port/:id/g/workers",
    handler: ({ app, params }) => Response.json(app.engine.live.groupWorkers(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/port/:id/g/wallet/list",
    handler: ({ app, params }) => Response.json(app.engine.live.walletList(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/port/:id/g/wallets/:collect",
    handler: ({ app, params }) => {
      // collect = 1: only the starred wallets; 0: all wallets, each marked.
      const port = portOr404(app, params.id);
      const starred = new Set(app.favourites.list(port.id));
      const rows = (app.engine.live.walletList(port.id) as { wallet?: string }[]).map((w) => ({
        ...w,
        collect: starred.has(w.wallet ?? ""),
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
    handler: ({ app, params }) => {
      const worker = app.engine.live.worker(params.id ?? "");
      if (worker === null) throw notFound("lang.err.device_missing");
      return Response.json(worker);
    },
  },
  {
    method: "GET",
    path: "/api/stat/port/:id",
    handler: ({ app, params }) => Response.json(app.engine.live.portStats(portOr404(app, params.id).id)),
  },
  {
    method: "GET",
    path: "/api/stat/currency/:currency",
    handler: ({ app, params }) => Response.json(app.engine.live.currencyStats(params.currency ?? "")),
  },
  {
    method: "GET",
    path: "/api/device/stats",
    handler: ({ app }) => Response.json(app.engine.live.deviceStats()),
  },
  {
    method: "GET",
    path: "/api/currency/online/stat/:coin",
    handler: ({ app, params }) => Response.json(app.engine.live.onlineStat(params.coin ?? "")),
  },
];
