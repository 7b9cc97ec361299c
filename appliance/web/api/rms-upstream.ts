import { z } from "zod";
import { RMS_UPSTREAM_SETTING } from "../../domain/rms.ts";
import { keep, mask } from "../../domain/secret-mask.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import type { Route } from "../router.ts";

const body = z.object({
  password: z.string("lang.rms.err_update").max(128, "lang.rms.err_update"),
});

const stored = (app: AppContext) => app.settings.get<string>(RMS_UPSTREAM_SETTING, "");

/** A read shows MASK where a password is set: like the alert channels' secrets, it never leaves in clear. */
const shown = (password: string) => Response.json({ password: mask(password) });

/**
 * The farm side of appliance chaining (docs/rms-tunnel.md, "Upstream"): the RMS password this
 * appliance presents to the tunnel ports its RMS2/RMS3 pools reach. Beside /api/rms/config rather
 * than inside it: that object's password is what this appliance asks of its own clients. Guarded
 * like the KENC key it goes with (an admin session, no re-authentication).
 */
export const rmsUpstreamRoutes: Route[] = [
  { method: "GET", path: "/api/rms/upstream", handler: ({ app }) => shown(stored(app)) },
  {
    method: "POST",
    path: "/api/rms/upstream",
    handler: async (r) => {
      const { app, req } = r;
      const before = stored(app);
      // the form sends MASK back when the operator left the field alone: the stored password stays
      const password = keep((await parseBody(req, body)).password, before);
      audit(r, "RMS upstream password", { upstream_password: before }, { upstream_password: password });
      app.settings.set(RMS_UPSTREAM_SETTING, password);
      // the pool tunnels read it on the engine's thread as each of their links is dialled
      await app.engine.setEnvironment({ rmsUpstreamPassword: password });
      return shown(password);
    },
  },
];
