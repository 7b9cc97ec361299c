import { z } from "zod";
import { parseWith } from "../body.ts";
import type { Route } from "../router.ts";

/** `?port=N`: only the tunnels of that server port */
const query = z.object({
  port: z.coerce
    .number("lang.err.params")
    .int("lang.err.params")
    .min(1, "lang.err.params")
    .max(65535, "lang.err.params")
    .optional(),
});

/**
 * The tunnels of the running RMS / RMS2 / RMS3 ports (docs/api.md, docs/rms-tunnel.md "The tunnel
 * list"), beside the spec's /api/rms/config: who is connected, how much the link carried against
 * what its streams carried. Admin session only, like the settings it sits under.
 */
export const rmsTunnelRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/rms/tunnels",
    handler: async ({ app, url }) => {
      const q = parseWith(query, Object.fromEntries(url.searchParams));
      const tunnels = await app.engine.tunnels();
      return Response.json({
        items: q.port === undefined ? tunnels : tunnels.filter((t) => t.port === q.port),
      });
    },
  },
];
