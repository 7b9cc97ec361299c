/**
 * The first /api/poolnode/* calls of spec §7 (docs/pool-node.md): the project (apply, info, config,
 * active, unactive) and sync/info. Replies keep the `{status, data}` shape the pool-node page reads;
 * status 4 means "not activated" (spec §4, §8). The other pool-node calls are not served yet.
 */
import { CredentialsError, projectSchema, publicProject, withCredentials } from "../../poolnode/project.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";

const NOT_ACTIVATED = 4;
const notActivated = () => Response.json({ status: NOT_ACTIVATED, message: "not activated" });
const ok = (data: unknown) => Response.json({ status: 0, data });

async function readProjectBody(r: RequestInfo) {
  const body = await parseBody(r.req, projectSchema);
  try {
    return withCredentials(body, r.app.poolNode.project());
  } catch (e) {
    if (e instanceof CredentialsError)
      throw badRequest("lang.poolnode.err_config", { field: "rpc_cookie_file" });
    throw e;
  }
}

/** Stores the project (apply creates it, config changes it); both set where block rewards go. */
async function saveProject(r: RequestInfo): Promise<Response> {
  const next = await readProjectBody(r);
  const before = r.app.poolNode.project();
  audit(r, "pool-node project", before, { ...next, active: before?.active ?? false });
  await r.app.poolNode.save(next);
  const saved = r.app.poolNode.project();
  return ok(saved === null ? null : publicProject(saved));
}

export const poolNodeRoutes: Route[] = [
  { method: "POST", path: "/api/poolnode/project/apply", reauth: true, handler: saveProject },
  { method: "POST", path: "/api/poolnode/project/config", reauth: true, handler: saveProject },
  {
    method: "GET",
    path: "/api/poolnode/project/config",
    handler: ({ app }) => {
      const p = app.poolNode.project();
      return p === null ? notActivated() : ok(publicProject(p));
    },
  },
  {
    method: "GET",
    path: "/api/poolnode/project/info",
    handler: ({ app }) => {
      const p = app.poolNode.project();
      const state = app.poolNode.state();
      if (p === null || state === "not_activated") return notActivated();
      const job = app.poolNode.running?.currentJob ?? null;
      return ok({
        state,
        error: app.poolNode.lastError,
        config: {
          coin: p.coin,
          fee: p.fee,
          pplns_window: p.pplns_window,
          difficulty: p.difficulty,
          vardiff_seconds: p.vardiff_seconds,
        },
        projectPort: p.stratum_port,
        endpoints: [{ id: 1, name: `${p.coin} daemon`, coin: p.coin }],
        enable: state === "running",
        templates: { active: job === null ? 0 : 1, total: 1 },
      });
    },
  },
  {
    method: "POST",
    path: "/api/poolnode/project/active",
    handler: async (r) => {
      if (r.app.poolNode.project() === null) return notActivated();
      const before = r.app.poolNode.state();
      try {
        await r.app.poolNode.activate();
      } catch (e) {
        throw new ApiError(502, "lang.poolnode.err_daemon", {
          detail: e instanceof Error ? e.message : String(e),
        });
      }
      audit(r, "pool-node state", { state: before }, { state: r.app.poolNode.state() });
      return ok({ state: r.app.poolNode.state() });
    },
  },
  {
    method: "POST",
    path: "/api/poolnode/project/unactive",
    handler: async (r) => {
      const before = r.app.poolNode.state();
      await r.app.poolNode.deactivate();
      audit(r, "pool-node state", { state: before }, { state: r.app.poolNode.state() });
      return ok({ state: r.app.poolNode.state() });
    },
  },
  {
    method: "GET",
    path: "/api/poolnode/sync/info",
    handler: async ({ app }) => {
      const pool = app.poolNode.running;
      if (app.poolNode.state() === "not_activated") return notActivated();
      if (pool === null) return ok({ state: "activated", error: app.poolNode.lastError });
      try {
        return ok({ state: "running", ...(await app.poolNode.syncInfo(pool)) });
      } catch (e) {
        throw new ApiError(502, "lang.poolnode.err_daemon", {
          detail: e instanceof Error ? e.message : String(e),
        });
      }
    },
  },
];
