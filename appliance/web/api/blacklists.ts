import { z } from "zod";
import type { BlacklistKind } from "../../store/blacklists.ts";
import { parseBody } from "../body.ts";
import type { Route } from "../router.ts";

/** Spec §3: ban and unban payloads carry a field named ips holding a list, for wallets too. */
const body = z.object({
  ips: z
    .array(z.string().transform((s) => s.trim()))
    .transform((l) => l.filter((s) => s !== ""))
    .pipe(
      z
        .array(z.string().max(256, "lang.err.params"))
        .min(1, "lang.blacklist.err_empty")
        .max(10_000, "lang.err.params"),
    ),
});

function routesFor(kind: BlacklistKind): Route[] {
  const path = `/api/${kind}/blacklist`;
  return [
    { method: "GET", path, handler: ({ app }) => Response.json(app.blacklists.list(kind)) },
    {
      method: "POST",
      path,
      handler: async ({ app, req }) => {
        const { ips } = await parseBody(req, body);
        app.blacklists.add(kind, ips);
        return Response.json(app.blacklists.list(kind));
      },
    },
    {
      method: "DELETE",
      path,
      handler: async ({ app, req }) => {
        const { ips } = await parseBody(req, body);
        app.blacklists.remove(kind, ips);
        return Response.json(app.blacklists.list(kind));
      },
    },
  ];
}

export const allBlacklistRoutes: Route[] = [...routesFor("ip"), ...routesFor("wallet")];
