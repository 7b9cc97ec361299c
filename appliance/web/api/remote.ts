import { z } from "zod";
import type { RemoteClient } from "../../store/remote-clients.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { ApiError, badRequest, notFound } from "../errors.ts";
import type { Route } from "../router.ts";

/** Header another instance sends with this instance's group-control token. */
export const API_TOKEN_HEADER = "x-api-token";
const REMOTE_TIMEOUT_MS = 4000;

const required = z.string("lang.remote.err_required").trim().min(1, "lang.remote.err_required");
const clientBody = z.object({
  address: required
    .transform((s) => s.replace(/\/+$/, ""))
    .pipe(z.string().regex(/^https?:\/\/[^\s]+$/i, "lang.remote.err_address")),
  token: required.max(256, "lang.err.params"),
  remark: required.max(128, "lang.err.params"),
});

async function callRemote(c: RemoteClient, method: string, path: string, body?: string): Promise<Response> {
  return fetch(`${c.address}/api/${path.replace(/^\/+/, "")}`, {
    method,
    headers: { [API_TOKEN_HEADER]: c.token, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    tls: { rejectUnauthorized: false },
  });
}

/** Live state of a remote instance: version, uptime, online devices, CPU, memory, traffic. */
async function probe(c: RemoteClient) {
  const { token: _t, ...shown } = c;
  try {
    const [version, stat] = await Promise.all([
      callRemote(c, "GET", "local/version").then((r) =>
        r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`)),
      ),
      callRemote(c, "GET", "sys/stat").then((r) =>
        r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`)),
      ),
    ]);
    return { ...shown, online: true, version, stat };
  } catch (err) {
    return { ...shown, online: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function clientOr404(app: AppContext, id: string | undefined): RemoteClient {
  const c = app.remotes.get(Number(id));
  if (!c) throw notFound();
  return c;
}

export const remoteRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/remote/token",
    reauth: true,
    handler: ({ app }) => Response.json({ token: app.machines.get("control") }),
  },
  {
    method: "POST",
    path: "/api/remote/token",
    reauth: true,
    handler: async (r) => {
      const { app, req } = r;
      const { token } = await parseBody(
        req,
        z.object({ token: z.string().trim().min(16, "lang.err.params").max(256) }),
      );
      audit(r, "group-control token", { token: app.machines.get("control") }, { token });
      app.machines.set("control", token);
      return Response.json({ token });
    },
  },
  {
    method: "POST",
    path: "/api/remote/refresh/token",
    reauth: true,
    handler: (r) => {
      const before = r.app.machines.get("control");
      const token = r.app.machines.rotate("control");
      audit(r, "group-control token", { token: before }, { token });
      return Response.json({ token });
    },
  },
  {
    method: "GET",
    path: "/api/remote/list",
    handler: async ({ app }) => Response.json(await Promise.all(app.remotes.list().map(probe))),
  },
  {
    method: "POST",
    path: "/api/remote/new",
    handler: async (r) => {
      const id = r.app.remotes.create(await parseBody(r.req, clientBody));
      audit(r, `group-control client ${id}`, null, r.app.remotes.get(id));
      return Response.json({ id });
    },
  },
  {
    method: "POST",
    path: "/api/remote/:id",
    handler: async (r) => {
      const { app, req, params } = r;
      const c = clientOr404(app, params.id);
      app.remotes.update(c.id, await parseBody(req, clientBody));
      audit(r, `group-control client ${c.id}`, c, app.remotes.get(c.id));
      return Response.json({ id: c.id });
    },
  },
  {
    method: "DELETE",
    path: "/api/remote/:id",
    handler: (r) => {
      const { app, params } = r;
      const c = clientOr404(app, params.id);
      if (!app.remotes.delete(c.id)) throw new ApiError(500, "lang.remote.err_delete");
      audit(r, `group-control client ${c.id}`, c, null);
      return ok();
    },
  },
  ...(["GET", "POST", "DELETE"] as const).map(
    (method): Route => ({
      method,
      path: "/api/remote/q/:id/:m/:p",
      handler: async (r) => {
        const { app, req, params, address } = r;
        // Runs one API call on a remote instance: m is its method, p its path below /api/ (URL-encoded).
        const c = clientOr404(app, params.id);
        const m = (params.m ?? "").toUpperCase();
        if (!["GET", "POST", "DELETE"].includes(m)) throw badRequest("lang.err.params", { field: "m" });
        const body = method === "GET" ? undefined : await req.text();
        if (m !== "GET") app.logs.add("operation", `group ${c.id}: ${m} /api/${params.p}`, address);
        // the remote audits the change itself; this side records that it was sent from here
        if (m !== "GET")
          audit(r, `group-control client ${c.id} (${c.address})`, null, { call: `${m} /api/${params.p}` });
        try {
          const res = await callRemote(c, m, params.p ?? "", m === "GET" ? undefined : body);
          return new Response(await res.arrayBuffer(), {
            status: res.status,
            headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
          });
        } catch (err) {
          throw new ApiError(502, "lang.remote.err_fetch", {
            detail: err instanceof Error ? err.message : String(err),
          });
        }
      },
    }),
  ),
];
