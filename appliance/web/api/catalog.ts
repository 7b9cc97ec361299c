import { z } from "zod";
import { CURRENCIES, categoryOf, currencyConfig } from "../../catalog/currencies.ts";
import { builtinPools } from "../../catalog/pools.ts";
import { parseBody } from "../body.ts";
import { notFound } from "../errors.ts";
import type { Route } from "../router.ts";

const PING_TIMEOUT_MS = 5000;

export const catalogRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/currency/config",
    handler: () => Response.json({ order: CURRENCIES.map((c) => c.coin), config: currencyConfig() }),
  },
  {
    method: "GET",
    path: "/api/pool/info/:id",
    handler: ({ params }) => {
      // Only one built-in list exists (the spec fixes the id to 1 in the preset dialogs).
      if (params.id !== "1") throw notFound();
      return Response.json(builtinPools());
    },
  },
  {
    method: "POST",
    path: "/api/ping",
    handler: async ({ app, req }) => {
      const { address, conn_type, currency } = await parseBody(
        req,
        z.object({
          address: z
            .string("lang.proxy.err_pool_address")
            .transform((s) => s.replace(/\s+/g, "").replace(/^[a-z0-9+]+:\/\//i, ""))
            .pipe(z.string().regex(/^[^:/]+:\d{1,5}$/, "lang.proxy.err_pool_address")),
          /** spec §4 connect modes: TCP 0, SSL 1, RMS2 5 and RMS3 6 (through a tunnel, with the KENC key) */
          conn_type: z.union([z.literal(0), z.literal(1), z.literal(5), z.literal(6)]).default(0),
          /** the port's coin: the test logs in the way its protocol does */
          currency: z.string().max(32).optional(),
        }),
      );
      // The test's outcome is the answer, not an HTTP error: the console shows ok/error with the latency.
      try {
        const category = currency ? (categoryOf(currency) ?? null) : null;
        const latency = await app.engine.ping(address, conn_type, PING_TIMEOUT_MS, category);
        return Response.json({ status: "ok", latency });
      } catch (err) {
        return Response.json({ status: "error", error: err instanceof Error ? err.message : String(err) });
      }
    },
  },
  {
    method: "GET",
    path: "/api/ip/coming",
    handler: async ({ app }) => {
      // Spec: all-port IP access records, the latest 100.
      const perPort = await Promise.all(
        app.ports
          .list()
          .map(async (p) => (await app.engine.live.portIps(p.id)).map((r) => ({ ...r, port: p.port }))),
      );
      const rows = perPort.flat();
      rows.sort((a, b) => b.lastSeen - a.lastSeen);
      return Response.json(rows.slice(0, 100));
    },
  },
];
