import { z } from "zod";
import { sha256Fingerprint } from "../../ops/cert/fingerprint.ts";
import { readPeerCertificate } from "../../ops/group/pinned-tls.ts";
import { callRemote, isHttps, REMOTE_TIMEOUT_MS, RemoteCallError } from "../../ops/group/remote-call.ts";
import type { RemoteClient, RemotePin } from "../../store/remote-clients.ts";
import type { AppContext } from "../app-context.ts";
import { audit, auditRefusal } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { ApiError, badRequest, notFound } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";

export { API_TOKEN_HEADER } from "../../ops/group/remote-call.ts";

const required = z.string("lang.remote.err_required").trim().min(1, "lang.remote.err_required");
const address = required
  .transform((s) => s.replace(/\/+$/, ""))
  .pipe(z.string().regex(/^[a-z]+:\/\/[^\s]+$/i, "lang.remote.err_address"))
  .refine(isHttps, "lang.remote.err_https");
const fingerprint = sha256Fingerprint("lang.remote.err_confirm");
const clientBody = z.object({
  address,
  token: required.max(256, "lang.err.params"),
  remark: required.max(128, "lang.err.params"),
  /** the certificate fingerprint the operator confirmed; required to register or move a remote */
  fingerprint: fingerprint.optional(),
});

/** What the list and the audit log show of a remote: never its token's value, nor the whole PEM. */
function shown(c: RemoteClient) {
  const { token: _t, certificate: _c, ...rest } = c;
  return { ...rest, pinned: c.fingerprint !== "" };
}

function audited(c: RemoteClient | null) {
  return c && { address: c.address, remark: c.remark, token: c.token, fingerprint: c.fingerprint };
}

function clientOr404(app: AppContext, id: string | undefined): RemoteClient {
  const c = app.remotes.get(Number(id));
  if (!c) throw notFound();
  return c;
}

/**
 * Trust on first use: the certificate the remote presents now must be the one the operator saw and
 * confirmed; another one (swapped between showing and confirming) is refused and audited.
 */
async function confirmedPin(r: RequestInfo, at: string, confirmed: string | undefined): Promise<RemotePin> {
  if (!confirmed) throw badRequest("lang.remote.err_confirm", { field: "fingerprint" });
  const presented = await readPeerCertificate(at, REMOTE_TIMEOUT_MS).catch((err: unknown) => {
    throw new ApiError(502, "lang.remote.err_fetch", {
      detail: err instanceof Error ? err.message : String(err),
    });
  });
  if (presented.fingerprint !== confirmed) {
    auditRefusal(
      r.app,
      r.credential,
      r.address,
      r.action,
      `${at} presented certificate ${presented.fingerprint}, not the confirmed ${confirmed}`,
    );
    throw new ApiError(409, "lang.remote.err_changed", { detail: presented.fingerprint });
  }
  return { fingerprint: presented.fingerprint, certificate: presented.certificate };
}

/** A refused or failed call as the API answers it; a certificate other than the pinned one is audited. */
function callFailure(r: RequestInfo, c: RemoteClient, err: unknown): ApiError {
  if (!(err instanceof RemoteCallError))
    return new ApiError(502, "lang.remote.err_fetch", { detail: String(err) });
  if (err.key === "lang.remote.err_fingerprint") {
    auditRefusal(
      r.app,
      r.credential,
      r.address,
      r.action,
      `group-control client ${c.id} (${c.address}): ${err.message} (${c.fingerprint})`,
    );
    return new ApiError(502, err.key, { detail: err.presented });
  }
  if (err.key === "lang.remote.err_unpinned") return new ApiError(409, err.key);
  if (err.key === "lang.remote.err_https") return new ApiError(400, err.key);
  return new ApiError(502, err.key, { detail: err.message });
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
    handler: async ({ app, url }) => {
      // ?refresh=1 waits for a fresh round; otherwise the background monitor's last readings
      if (url.searchParams.get("refresh") === "1") await app.fleet.refresh();
      return Response.json(app.remotes.list().map((c) => ({ ...shown(c), ...app.fleet.state(c) })));
    },
  },
  {
    method: "POST",
    path: "/api/remote/inspect",
    handler: async ({ req }) => {
      // The first step of adding a remote: the certificate it presents, for the operator to confirm.
      const body = await parseBody(req, z.object({ address }));
      try {
        const cert = await readPeerCertificate(body.address, REMOTE_TIMEOUT_MS);
        return Response.json({
          address: body.address,
          fingerprint: cert.fingerprint,
          subject: cert.subject,
          notAfter: cert.notAfter,
        });
      } catch (err) {
        throw new ApiError(502, "lang.remote.err_fetch", {
          detail: err instanceof Error ? err.message : String(err),
        });
      }
    },
  },
  {
    method: "POST",
    path: "/api/remote/new",
    handler: async (r) => {
      const { fingerprint: confirmed, ...input } = await parseBody(r.req, clientBody);
      const pin = await confirmedPin(r, input.address, confirmed);
      const id = r.app.remotes.create(input, pin);
      audit(r, `group-control client ${id}`, null, audited(r.app.remotes.get(id)));
      void r.app.fleet.refresh([id]);
      return Response.json({ id });
    },
  },
  {
    method: "POST",
    path: "/api/remote/:id/pin",
    reauth: true,
    handler: async (r) => {
      // Pins the certificate the remote presents now: a not yet pinned row, or after a certificate change.
      const { app, req, params } = r;
      const c = clientOr404(app, params.id);
      if (!isHttps(c.address)) throw badRequest("lang.remote.err_https", { field: "address" });
      const body = await parseBody(req, z.object({ fingerprint: fingerprint.optional() }));
      app.remotes.pin(c.id, await confirmedPin(r, c.address, body.fingerprint));
      audit(r, `group-control client ${c.id}`, audited(c), audited(app.remotes.get(c.id)));
      await app.fleet.refresh([c.id]);
      return Response.json({ id: c.id, fingerprint: app.remotes.get(c.id)?.fingerprint });
    },
  },
  {
    method: "POST",
    path: "/api/remote/:id",
    handler: async (r) => {
      const { app, req, params } = r;
      const c = clientOr404(app, params.id);
      const { fingerprint: confirmed, ...input } = await parseBody(req, clientBody);
      // the pin belongs to the address: another address is another remote, pinned anew
      const pin = input.address === c.address ? null : await confirmedPin(r, input.address, confirmed);
      app.remotes.update(c.id, input);
      if (pin) app.remotes.pin(c.id, pin);
      audit(r, `group-control client ${c.id}`, audited(c), audited(app.remotes.get(c.id)));
      void app.fleet.refresh([c.id]);
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
      app.fleet.forget(c.id);
      audit(r, `group-control client ${c.id}`, audited(c), null);
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
          throw callFailure(r, c, err);
        }
      },
    }),
  ),
];
