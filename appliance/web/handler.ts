import { API_TOKEN_HEADER } from "./api/remote.ts";
import type { AppContext } from "./app-context.ts";
import { auditRefusal } from "./audit.ts";
import { PUBLIC_BODY_MAX, readCapped } from "./body.ts";
import type { Credential } from "./credential.ts";
import { ApiError } from "./errors.ts";
import { consoleBase } from "./page-base.ts";
import type { Router } from "./router.ts";
import type { StaticAssets } from "./static.ts";

export const ROUTE_SETTING = "route";

/** Builds the fetch handler: secure-route prefix, bearer auth, JSON errors, the console's files. */
export function createHandler(app: AppContext, router: Router, assets: StaticAssets) {
  return async function handle(req: Request, address: string): Promise<Response> {
    const url = new URL(req.url);
    let path = url.pathname;
    const route = app.settings.get<string>(ROUTE_SETTING, "");
    // Liveness for supervisors and load balancers. With a secure route set, the version (what a
    // scanner wants, to pick an exploit) is told only inside it, and to this machine's own update
    // supervisor, which checks the release it switched to.
    if (path === "/healthz") {
      const tell = route === "" || isLoopback(address);
      return Response.json(tell ? { ok: true, version: app.version } : { ok: true });
    }

    // With a secure route set, nothing answers outside it: scanners see only 404s.
    if (route) {
      const prefix = `/${route.replace(/\/$/, "")}`;
      if (path !== prefix && !path.startsWith(`${prefix}/`))
        return new Response("Not Found", { status: 404 });
      path = path.slice(prefix.length) || "/";
      if (path === "/" && !url.pathname.endsWith("/")) {
        return Response.redirect(`${prefix}/`, 302);
      }
    }

    if (path === "/healthz") return Response.json({ ok: true, version: app.version });
    if (!path.startsWith("/api/")) return assets.serve(path, req, consoleBase(route));
    const started = performance.now();
    const res = await dispatch(app, router, req, url, path, address);
    // Answers carry configuration and live state: never cached by a browser or a proxy in between.
    if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
    const sent = await compressLarge(req, res);
    if (req.method !== "GET" && res.status < 400 && !path.startsWith("/api/_/")) {
      app.logs.add("operation", `${req.method} ${path}`, address);
    }
    app.logs.add(
      "request",
      `${req.method} ${path} ${res.status} ${(performance.now() - started).toFixed(1)}ms`,
      address,
    );
    return sent;
  };
}

async function dispatch(
  app: AppContext,
  router: Router,
  req: Request,
  url: URL,
  path: string,
  address: string,
): Promise<Response> {
  let m: ReturnType<Router["match"]>;
  try {
    m = router.match(req.method, path);
  } catch (err) {
    if (err instanceof ApiError) return err.toResponse();
    throw err;
  }
  if (!m) {
    const allowed = router.allowed(path);
    if (allowed.length > 0)
      return new ApiError(405, "lang.err.not_found", {}, "Method not allowed").toResponse();
    return new ApiError(404, "lang.err.not_found").toResponse();
  }
  const action = `${req.method} ${path}`;
  let credential: Credential = { kind: "public" };
  if (!m.route.public) {
    const who = credentialOf(app, req);
    if (who === null) return new ApiError(401, "lang.err.unauthorized").toResponse();
    if (who.kind !== "admin" && m.route.scope !== who.kind && !(await scopedFor(app, m, who.kind, req))) {
      // a machine token used outside its scope is what a stolen token looks like: say so in the log
      app.logs.add("operation", `refused: the ${who.kind} token may not call ${req.method} ${path}`, address);
      auditRefusal(app, who, address, action, `the ${who.kind} token may not call this route`);
      return new ApiError(403, "lang.err.scope").toResponse();
    }
    // A session that proved its password long ago may be one left open or stolen: a change of where
    // the hashrate or the fees go, or of the credentials, asks for the password again.
    if (m.route.reauth && who.kind === "admin" && !who.fresh) {
      const minutes = Math.floor(who.authAgeMs / 60_000);
      auditRefusal(
        app,
        who,
        address,
        action,
        `re-authentication required (password last proved ${minutes} min ago)`,
      );
      return new ApiError(403, "lang.err.reauth").toResponse();
    }
    credential = who;
  }
  try {
    // anyone may call the public routes: their body is capped before anything reads it
    const body = m.route.public && req.body !== null ? await readCapped(req, PUBLIC_BODY_MAX) : null;
    const request =
      body === null
        ? req
        : new Request(req.url, {
            method: req.method,
            headers: req.headers,
            body: body as Uint8Array<ArrayBuffer>,
          });
    return await m.route.handler({ req: request, url, params: m.params, address, app, credential, action });
  } catch (err) {
    if (err instanceof ApiError) return err.toResponse();
    app.logs.add(
      "error",
      `${req.method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return new ApiError(500, "lang.err.fatal").toResponse();
  }
}

/** Whether a machine credential may make this one request of a route outside its scope. */
async function scopedFor(
  app: AppContext,
  m: NonNullable<ReturnType<Router["match"]>>,
  scope: string,
  req: Request,
): Promise<boolean> {
  const when = m.route.scopeWhen;
  if (when === undefined || when.scope !== scope) return false;
  return await when.allows({ req: req.clone(), params: m.params, app });
}

const COMPRESS_FROM = 8 * 1024;

/**
 * Large JSON answers (a port list, a device list) go gzipped at level 1 when the client accepts it:
 * 771 KB of ports becomes 46 KB in under 2 ms, which is what a farm's LAN notices.
 */
async function compressLarge(req: Request, res: Response): Promise<Response> {
  if (!res.headers.get("content-type")?.startsWith("application/json")) return res;
  if (res.headers.has("content-encoding") || !/\bgzip\b/.test(req.headers.get("accept-encoding") ?? ""))
    return res;
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.length < COMPRESS_FROM) return new Response(body, res);
  const headers = new Headers(res.headers);
  headers.set("content-encoding", "gzip");
  headers.set("vary", "accept-encoding");
  return new Response(Bun.gzipSync(body, { level: 1 }), { status: res.status, headers });
}

const isLoopback = (address: string): boolean =>
  address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");

export function bearer(req: Request): string | null {
  const h = req.headers.get("authorization");
  if (!h?.startsWith("Bearer ")) return null;
  return h.slice(7).trim() || null;
}

/**
 * Who is calling: an admin console session (a bearer token from login), or a machine token with its
 * one scope (sent as a bearer token or, by group control, in the x-api-token header).
 */
function credentialOf(app: AppContext, req: Request): Credential | null {
  const token = bearer(req);
  const session = token === null ? null : app.tokens.session(token);
  if (session !== null)
    return { kind: "admin", session: session.id, fresh: session.fresh, authAgeMs: session.authAgeMs };
  const presented = req.headers.get(API_TOKEN_HEADER) ?? token;
  const scope = presented ? app.machines.scopeOf(presented) : null;
  return scope === null ? null : { kind: scope };
}
