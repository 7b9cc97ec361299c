import { isIP } from "node:net";
import { z } from "zod";
import type { BlacklistKind } from "../../store/blacklists.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

/** A list as {entry: true}, so the audit log shows what was added and removed, not shifted positions. */
const asSet = (list: string[]) => Object.fromEntries(list.map((v) => [v, true]));

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

/** The list after a change, handed to the engine too: it checks connections against its own copy. */
async function changed(app: AppContext, kind: BlacklistKind): Promise<string[]> {
  const list = app.blacklists.list(kind);
  await app.engine.setEnvironment(kind === "ip" ? { bannedIps: list } : { bannedWallets: list });
  return list;
}

function routesFor(kind: BlacklistKind): Route[] {
  const path = `/api/${kind}/blacklist`;
  return [
    { method: "GET", path, handler: ({ app }) => Response.json(app.blacklists.list(kind)) },
    {
      method: "POST",
      path,
      handler: async (r) => {
        const { app, req } = r;
        const { ips } = await parseBody(req, body);
        const before = app.blacklists.list(kind);
        // an entry the accept check can never match would look like protection and be none
        const bad = kind === "ip" ? ips.find((ip) => isIP(ip) === 0) : undefined;
        if (bad !== undefined) throw badRequest("lang.blacklist.err_ip", { field: "ips", value: bad });
        app.blacklists.add(kind, ips);
        const after = await changed(app, kind);
        audit(r, `${kind} blacklist`, asSet(before), asSet(after));
        return Response.json(after);
      },
    },
    {
      method: "DELETE",
      path,
      handler: async (r) => {
        const { app, req } = r;
        const { ips } = await parseBody(req, body);
        const before = app.blacklists.list(kind);
        app.blacklists.remove(kind, ips);
        const after = await changed(app, kind);
        audit(r, `${kind} blacklist`, asSet(before), asSet(after));
        return Response.json(after);
      },
    },
  ];
}

export const allBlacklistRoutes: Route[] = [...routesFor("ip"), ...routesFor("wallet")];
