import { z } from "zod";
import { feeSupported, isCategory } from "../../catalog/categories.ts";
import type { Port } from "../../domain/port.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody, parseWith, readJson } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";
import { NotOffered, normalizePort, portSchema, UnsupportedCoin } from "../schemas/port.ts";
import { checkPortNumber, notQueuing, portOr404 } from "./port-guards.ts";

/** The list/detail item of spec §7: server fields, wallets, stat, setting, plus the run state. */
export async function portItem(app: AppContext, p: Port) {
  const { wallets, setting, ...server } = p;
  return {
    server,
    wallets,
    setting,
    stat: await app.engine.stat(p.id),
    state: app.engine.runState(p.id),
    // false for coins relayed as is: fee wallets with a ratio are refused for them
    fee_supported: isCategory(p.category) && feeSupported(p.category),
  };
}

function validate(body: unknown, creating: boolean) {
  const parsed = parseWith(portSchema, body);
  try {
    return normalizePort(parsed, { creating });
  } catch (err) {
    if (err instanceof UnsupportedCoin)
      throw badRequest("lang.proxy.err_coin_unsupported", { field: "currency" });
    if (err instanceof NotOffered) throw badRequest(err.key, { field: err.field, ...err.detail });
    throw err;
  }
}

/**
 * Hands a stored port to the engine. The configuration is already saved, so a listener that fails to
 * start is reported (open failed, with the reason) without losing what the operator entered.
 */
async function applySaved(app: AppContext, id: number): Promise<void> {
  try {
    await app.engine.apply(app.ports.get(id) as Port);
  } catch (err) {
    throw new ApiError(500, "lang.proxy.err_open", {
      detail: err instanceof Error ? err.message : String(err),
    });
  }
}

async function createPort(r: RequestInfo, body: unknown): Promise<number> {
  const { app } = r;
  const input = validate(body, true);
  checkPortNumber(app, input.port, input.status === 1);
  const id = app.ports.create(input);
  audit(r, `port ${input.port}`, null, app.ports.get(id));
  await applySaved(app, id);
  return id;
}

/**
 * A port a pool node pushes to its group members (spec §7's `category: "poolnode"`); the catalogue's
 * category of its coin is what is stored, the pool-node origin is kept beside it (groupPorts).
 */
const isPoolNodePort = (body: unknown): boolean =>
  typeof body === "object" && body !== null && (body as { category?: unknown }).category === "poolnode";

const hasFeeRatio = (body: unknown): boolean => {
  const wallets = (body as { wallets?: unknown }).wallets;
  return Array.isArray(wallets) && wallets.some((w) => Number((w as { ratio?: unknown })?.ratio ?? 0) !== 0);
};

const batchBody = z.object({
  action: z.enum(["start", "stop", "delete"], "lang.err.params"),
  ids: z.array(z.number().int()).min(1, "lang.err.params").max(5000, "lang.err.params"),
});

const ACTION_ERRORS = {
  start: "lang.proxy.err_open",
  stop: "lang.proxy.err_close",
  delete: "lang.proxy.err_delete",
} as const;

async function act(r: RequestInfo, action: "start" | "stop" | "delete", port: Port): Promise<void> {
  const { app } = r;
  notQueuing(app, port.id);
  if (action === "delete") {
    await app.engine.remove(port.id);
    app.ports.delete(port.id);
  } else if (action === "start") {
    checkPortNumber(app, port.port, true, port.id);
    app.ports.setStatus([port.id], 1);
    await applySaved(app, port.id);
  } else {
    app.ports.setStatus([port.id], 0);
    await app.engine.stop(port.id);
  }
  audit(r, `port ${port.port}`, port, app.ports.get(port.id));
}

export const portRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/ports",
    scope: "control",
    handler: async ({ app }) =>
      Response.json({ items: await Promise.all(app.ports.list().map((p) => portItem(app, p))) }),
  },
  {
    method: "GET",
    path: "/api/port/:id",
    scope: "control",
    handler: async ({ app, params }) => Response.json(await portItem(app, portOr404(app, params.id))),
  },
  {
    method: "POST",
    path: "/api/port/new",
    reauth: true,
    scopeWhen: { scope: "control", allows: ({ req }) => req.json().then(isPoolNodePort, () => false) },
    handler: async (r) => {
      const body = await readJson(r.req);
      if (!isPoolNodePort(body)) return Response.json({ id: await createPort(r, body) });
      // a pool node's port sends its miners to the node and nowhere else: no fee wallet takes a part
      if (r.credential.kind === "control" && hasFeeRatio(body))
        throw new ApiError(403, "lang.err.scope", { field: "wallets" });
      const id = await createPort(r, body);
      r.app.groupPorts.markMemberPort(id, Date.now());
      return Response.json({ id });
    },
  },
  {
    method: "POST",
    path: "/api/port/:id",
    reauth: true,
    handler: async (r) => {
      const { app, req, params } = r;
      const current = portOr404(app, params.id);
      notQueuing(app, current.id);
      const input = validate(await readJson(req), false);
      checkPortNumber(app, input.port, input.status === 1, current.id);
      if (input.port !== current.port) {
        try {
          await app.engine.stop(current.id);
        } catch {
          throw new ApiError(500, "lang.err.save_port_close");
        }
      }
      app.ports.update(current.id, input);
      audit(r, `port ${input.port}`, current, app.ports.get(current.id));
      await applySaved(app, current.id);
      return Response.json({ id: current.id });
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/copy",
    reauth: true,
    handler: async (r) => {
      const { app, req, params } = r;
      // Clone (spec §4): the port's fields with a new port number and fresh wallet ids.
      const source = portOr404(app, params.id);
      const { port } = await parseBody(req, z.object({ port: z.unknown() }));
      const { id: _id, created_at: _c, updated_at: _u, wallets, ...fields } = source;
      const body = { ...fields, port, wallets: wallets.map(({ id: _w, server_id: _s, ...w }) => w) };
      return Response.json({ id: await createPort(r, body) });
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/start",
    scope: "control",
    handler: async (r) => {
      await act(r, "start", portOr404(r.app, r.params.id));
      return Response.json({ ok: true });
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/stop",
    scope: "control",
    handler: async (r) => {
      await act(r, "stop", portOr404(r.app, r.params.id));
      return Response.json({ ok: true });
    },
  },
  {
    method: "DELETE",
    path: "/api/port/:id",
    scopeWhen: {
      scope: "control",
      allows: ({ app, params }) => app.groupPorts.isMemberPort(Number(params.id)),
    },
    handler: async (r) => {
      await act(r, "delete", portOr404(r.app, r.params.id));
      return Response.json({ ok: true });
    },
  },
  {
    method: "POST",
    path: "/api/ports/batch",
    handler: async (r) => {
      const { app, req } = r;
      const { action, ids } = await parseBody(req, batchBody);
      const succeeded: number[] = [];
      const failed: { id: number; key: string; message: string }[] = [];
      for (const id of ids) {
        const port = app.ports.get(id);
        try {
          if (!port) throw new ApiError(404, "lang.err.not_found");
          await act(r, action, port);
          succeeded.push(id);
        } catch (err) {
          const e = err instanceof ApiError ? err : new ApiError(500, ACTION_ERRORS[action]);
          failed.push({ id, key: e.key, message: e.message });
        }
      }
      return Response.json({ succeeded, failed });
    },
  },
];
