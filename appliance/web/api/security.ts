import { createHash } from "node:crypto";
import { z } from "zod";
import type { CertificateView } from "../../ops/certificate-service.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody, readJson } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import { ROUTE_SETTING } from "../handler.ts";
import { WEB_TLS_SETTING } from "../http-server.ts";
import type { RequestInfo, Route } from "../router.ts";
import { canBind, DEFAULT_WEB_PORT, WEB_PORT_SETTING } from "./port-guards.ts";

export const KENC_SETTING = "kenc_key";

/**
 * Spec §5 safe route: English letters only, no leading "/", no "//", no "?", sent with one trailing
 * slash; "" (or "/") removes the route.
 */
export function parseRoute(k: string): string | null {
  if (k === "" || k === "/") return "";
  if (!k.endsWith("/")) return null;
  const name = k.slice(0, -1);
  return /^[A-Za-z]+$/.test(name) ? `${name}/` : null;
}

/** Names the console's own paths use: as a route they would make its addresses ambiguous. */
const RESERVED_ROUTES = new Set(["api", "system", "login", "assets", "healthz"]);

export function isReservedRoute(route: string): boolean {
  return RESERVED_ROUTES.has(route.replace(/\/$/, "").toLowerCase());
}

/** The derived display value of a KENC key: characters 8 to 24 of its MD5 (spec §3). */
export function kencDerived(key: string): string {
  return key ? createHash("md5").update(key).digest("hex").slice(8, 24) : "";
}

/**
 * `port` is the port the console answers on now (a --web-port override included), `stored` the setting,
 * `https_port` where it answers HTTPS (0: nowhere) with the certificate whose SHA-256 is `fingerprint`.
 */
function tlsState(app: AppContext) {
  return {
    enabled: app.settings.get<boolean>(WEB_TLS_SETTING, false),
    port: app.webPort(),
    stored: app.settings.get<number>(WEB_PORT_SETTING, DEFAULT_WEB_PORT),
    https_port: app.httpsPort(),
    fingerprint: app.certificates.describe().fingerprint,
  };
}

async function readCertificateUpload(req: Request): Promise<{ cert: string; key: string }> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const form = await req.formData();
    const text = async (name: string) => {
      const v = form.get(name);
      if (v === null) return "";
      return typeof v === "string" ? v : await v.text();
    };
    return {
      cert: (await text("cert")) || (await text("crt")) || (await text("pem")),
      key: await text("key"),
    };
  }
  const body = await readJson(req);
  const parsed = z.object({ cert: z.string().default(""), key: z.string().default("") }).safeParse(body);
  if (!parsed.success) throw badRequest("lang.cert.err_missing");
  return parsed.data;
}

/**
 * The appliance's one certificate (console, and the pool node's public page: both answer with it),
 * replaced by an uploaded pair; audited, and every listener that serves it starts again with it.
 */
export async function uploadCertificate(r: RequestInfo): Promise<CertificateView> {
  const { app, req } = r;
  const before = app.certificates.describe();
  const { cert, key } = await readCertificateUpload(req);
  if (!cert.trim() || !key.trim()) throw badRequest("lang.cert.err_missing");
  const res = app.certificates.upload(cert, key);
  if (!res.ok) throw badRequest("lang.cert.err_invalid", { detail: res.reason });
  audit(r, "TLS certificate", before, app.certificates.describe());
  await app.certificateChanged();
  return app.certificates.describe();
}

/** Back to a new self-signed certificate, the same way. */
export async function resetCertificate(r: RequestInfo): Promise<CertificateView> {
  const { app } = r;
  const before = app.certificates.describe();
  app.certificates.reset();
  audit(r, "TLS certificate", before, app.certificates.describe());
  await app.certificateChanged();
  return app.certificates.describe();
}

export const securityRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/route",
    handler: ({ app }) => Response.json({ k: app.settings.get<string>(ROUTE_SETTING, "") }),
  },
  {
    method: "POST",
    path: "/api/route",
    reauth: true,
    handler: async (r) => {
      const { app, req } = r;
      const { k } = await parseBody(req, z.object({ k: z.string("lang.route.err_format") }));
      const route = parseRoute(k.trim());
      if (route === null) throw badRequest("lang.route.err_format", { field: "k" });
      if (isReservedRoute(route)) throw badRequest("lang.route.err_reserved", { field: "k" });
      audit(r, "secure route", { route: app.settings.get<string>(ROUTE_SETTING, "") }, { route });
      app.settings.set(ROUTE_SETTING, route);
      // The handler reads the route per request, so the new address answers from the next request on.
      return Response.json({ k: route });
    },
  },
  {
    method: "GET",
    path: "/api/web/tls",
    handler: ({ app }) => Response.json(tlsState(app)),
  },
  {
    method: "GET",
    path: "/api/_/https",
    public: true,
    // the login page's plain-http banner links to the HTTPS console (0: none is offered)
    handler: ({ app }) => Response.json({ port: app.httpsPort() }),
  },
  {
    method: "POST",
    path: "/api/web/tls/:flag",
    reauth: true,
    handler: (r) => {
      const { app, params } = r;
      if (params.flag !== "0" && params.flag !== "1") throw badRequest("lang.tls.err_set");
      audit(r, "web console", { https: tlsState(app).enabled }, { https: params.flag === "1" });
      app.settings.set(WEB_TLS_SETTING, params.flag === "1");
      app.restartWeb(`HTTPS ${params.flag === "1" ? "on" : "off"}`);
      return Response.json(tlsState(app));
    },
  },
  {
    method: "POST",
    path: "/api/web/port/restart",
    reauth: true,
    handler: async (r) => {
      const { app, req } = r;
      const { port } = await parseBody(
        req,
        z.object({
          port: z.coerce
            .number("lang.webport.err_range")
            .int("lang.webport.err_range")
            .min(1, "lang.webport.err_range")
            .max(65535, "lang.webport.err_range"),
        }),
      );
      if (app.ports.byNumber(port) || (port !== app.webPort() && !canBind(port)))
        throw new ApiError(409, "lang.proxy.err_occupied", { field: "port" });
      audit(r, "web console", { web_port: tlsState(app).stored }, { web_port: port });
      app.settings.set(WEB_PORT_SETTING, port);
      app.restartWeb(`web port ${port}`);
      return Response.json(tlsState(app));
    },
  },
  {
    method: "GET",
    path: "/api/kc/key",
    handler: ({ app }) => {
      const k = app.settings.get<string>(KENC_SETTING, "");
      return Response.json({ k, derived: kencDerived(k) });
    },
  },
  {
    method: "POST",
    path: "/api/kc/key",
    handler: async (r) => {
      const { app, req } = r;
      const { k } = await parseBody(
        req,
        z.object({
          k: z.string("lang.kenc.err_empty").trim().min(1, "lang.kenc.err_empty").max(256, "lang.err.params"),
        }),
      );
      audit(r, "KENC key", { kenc_key: app.settings.get<string>(KENC_SETTING, "") }, { kenc_key: k });
      app.settings.set(KENC_SETTING, k);
      await app.engine.setEnvironment({ kencKey: k });
      return Response.json({ k, derived: kencDerived(k) });
    },
  },
  {
    method: "POST",
    path: "/api/kc/reset",
    handler: async (r) => {
      const { app } = r;
      audit(r, "KENC key", { kenc_key: app.settings.get<string>(KENC_SETTING, "") }, { kenc_key: "" });
      app.settings.delete(KENC_SETTING);
      await app.engine.setEnvironment({ kencKey: "" });
      return Response.json({ k: "", derived: "" });
    },
  },
  {
    method: "GET",
    path: "/api/cert",
    handler: ({ app }) => Response.json(app.certificates.describe()),
  },
  {
    method: "POST",
    path: "/api/cert/upload",
    handler: async (r) => Response.json(await uploadCertificate(r)),
  },
  {
    method: "POST",
    path: "/api/cert/reset",
    handler: async (r) => Response.json(await resetCertificate(r)),
  },
  {
    method: "GET",
    path: "/api/mb/port",
    handler: ({ app }) =>
      Response.json(
        app.ports
          .list()
          .filter((p) => p.setting.pth > 0)
          .map((p) => ({
            port: p.setting.pth,
            server_port: p.port,
            status: app.engine.runState(p.id) === "active" ? 1 : 0,
          })),
      ),
  },
];
