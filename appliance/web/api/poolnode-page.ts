/**
 * The pool node's public page (docs/pool-node.md "Public page"), with spec §7's calls: `index/port`,
 * `route`, `enable/index[/flag]`, `index/tls[/flag]`, `webconfig` and `cert`. Every call answers
 * with the page's whole state; a change is stored, audited and applied at once (the listener is
 * started again as the settings now say).
 */
import { z } from "zod";
import { type PageSettings, readPageSettings, writePageSettings } from "../../poolnode/web/page-settings.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody, parseWith } from "../body.ts";
import { badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";
import { checkFree } from "./poolnode-ports.ts";
import { nodeRoute } from "./poolnode-reply.ts";
import { parseRoute, resetCertificate, uploadCertificate } from "./security.ts";

const KEY = "lang.poolnode.err_page_config";
const portBody = z.object({ port: z.number(KEY).int(KEY).min(1, KEY).max(65535, KEY) });
const routeBody = z.object({ k: z.string("lang.route.err_format") });
const flagParam = z.object({ flag: z.enum(["0", "1"], KEY) });
const webconfigBody = z.object({
  title: z.string(KEY).trim().max(80, KEY).default(""),
  notice: z.string(KEY).trim().max(300, KEY).default(""),
});

/** What every call of the page answers: the settings, and whether it listens (and why not). */
export interface PageSettingsView {
  enable: boolean;
  port: number;
  route: string;
  tls: boolean;
  title: string;
  notice: string;
  listening: boolean;
  error: string;
}

function pageView(app: AppContext): PageSettingsView {
  const s = readPageSettings(app.settings);
  return {
    enable: s.enabled,
    port: s.port,
    route: s.route,
    tls: s.tls,
    title: s.title,
    notice: s.notice,
    ...app.poolPage.state,
  };
}

/** Stores the change, audits it and listens as it says; answers with the page's state. */
async function change(r: RequestInfo, next: Partial<PageSettings>) {
  const before = readPageSettings(r.app.settings);
  const after = { ...before, ...next };
  // a new port is checked even while the page is off; switching it on checks that it is still free
  if (after.port !== before.port || (after.enabled && !before.enabled)) checkFree(r.app, after.port, true);
  audit(r, "pool-node public page", before, after);
  writePageSettings(r.app.settings, after);
  await r.app.poolPage.apply();
  return pageView(r.app);
}

const read = (path: string): Route => nodeRoute("GET", path, ({ app }) => pageView(app));

export const poolNodePageRoutes: Route[] = [
  read("/api/poolnode/index/port"),
  nodeRoute("POST", "/api/poolnode/index/port", async (r) => {
    const { port } = await parseBody(r.req, portBody);
    return change(r, { port });
  }),
  read("/api/poolnode/route"),
  nodeRoute("POST", "/api/poolnode/route", async (r) => {
    const { k } = await parseBody(r.req, routeBody);
    const route = parseRoute(k.trim());
    if (route === null) throw badRequest("lang.route.err_format", { field: "k" });
    return change(r, { route });
  }),
  read("/api/poolnode/enable/index"),
  nodeRoute("POST", "/api/poolnode/enable/index/:flag", (r) =>
    change(r, { enabled: parseWith(flagParam, r.params).flag === "1" }),
  ),
  read("/api/poolnode/index/tls"),
  nodeRoute("POST", "/api/poolnode/index/tls/:flag", (r) =>
    change(r, { tls: parseWith(flagParam, r.params).flag === "1" }),
  ),
  read("/api/poolnode/webconfig"),
  nodeRoute("POST", "/api/poolnode/webconfig", async (r) => change(r, await parseBody(r.req, webconfigBody))),
  // the page serves the appliance's one certificate, the console's: replacing it here replaces it there
  nodeRoute("GET", "/api/poolnode/cert", ({ app }) => app.certificates.describe()),
  nodeRoute("POST", "/api/poolnode/cert/upload", uploadCertificate),
  nodeRoute("POST", "/api/poolnode/cert/reset", resetCertificate),
];
