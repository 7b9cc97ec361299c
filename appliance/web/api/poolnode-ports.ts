/**
 * The pool node's ports (docs/pool-node.md "Pool-node ports"): `port/new` adds a stratum listener of
 * the same pool (spec §7's body), `ports` lists the project's port and the extra ones with their
 * miners, `extra/{port}` reads, changes or removes an extra port, `endpoints` lists the daemons. A
 * port number the appliance already uses anywhere is refused before anything is stored.
 */
import { z } from "zod";
import { pushPort, unpushPort } from "../../ops/group/pool-port-push.ts";
import type { PoolPortInput } from "../../store/poolnode-ports.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody, parseWith } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";
import { nodeRoute } from "./poolnode-reply.ts";
import { canBind, DEFAULT_WEB_PORT, WEB_PORT_SETTING } from "./port-guards.ts";

const KEY = "lang.poolnode.err_port_config";
/** The one daemon a node has; `pool_address` of spec §7's body names it (the "area"). */
const ENDPOINT_ID = 1;
const portNumber = z.number(KEY).int(KEY).min(1, KEY).max(65534, KEY);
const settings = {
  name: z.string(KEY).trim().max(64, KEY).default(""),
  /** absent or null: the project's start difficulty */
  difficulty: z.number(KEY).positive(KEY).max(1e15, KEY).nullable().default(null),
  limit_connections: z.number(KEY).int(KEY).min(1, KEY).max(65535, KEY).default(60_000),
};
/** Spec §7's add-port body; its proxy fields (wallets, replace, standby pool) mean nothing here. */
const newPortBody = z.object({
  port: portNumber,
  ...settings,
  currency: z.string(KEY).trim().optional(),
  pool_address: z.union([z.string(KEY), z.number(KEY)]).optional(),
  /** the pool's listener speaks plain stratum over TCP */
  protocol: z.literal(0, KEY).default(0),
  category: z.literal("poolnode", KEY).default("poolnode"),
  /** the node's address as the group members reach it (spec: the custom display address); absent: the console's */
  proxy_addr: z.string(KEY).trim().max(253, KEY).default(""),
  /** Pithead's: the port number members listen on; absent: the same as the node's */
  member_port: portNumber.optional(),
});
const extraBody = z.object(settings);
const portParam = z.object({ port: z.coerce.number(KEY).pipe(portNumber) });

/** Spec §9 lists the coins as VA-LTC and so on; the project names its coin LTC. */
const coinOf = (currency: string) => currency.toUpperCase().replace(/^VA-/, "");

/**
 * Why the appliance cannot give this number to a pool-node port or the node's public page: it is a
 * proxy port's, the pool node's own, the web console's, the public page's, or another program
 * listens on it. The public page may keep the port it listens on.
 */
export function checkFree(app: AppContext, port: number, forPage = false): void {
  const taken = (detail: string) =>
    new ApiError(409, "lang.poolnode.err_port_in_use", { field: "port", detail });
  if (app.ports.byNumber(port) !== null) throw taken("proxy port");
  if (app.poolNode.holdsPort(port)) throw taken("pool-node port");
  const web = [app.settings.get<number>(WEB_PORT_SETTING, DEFAULT_WEB_PORT), app.webPort(), app.httpsPort()];
  if (web.includes(port)) throw taken("web console");
  const page = app.poolPage.port;
  if (page === port && !forPage) throw taken("public page");
  if (page !== port && !canBind(port)) throw new ApiError(409, "lang.proxy.err_occupied", { field: "port" });
}

/** An extra port named in the path; the project's own is changed in the project, not here. */
function extraOf(r: RequestInfo) {
  const { port } = parseWith(portParam, r.params);
  const extra = r.app.poolNode.extraPort(port);
  if (extra !== null) return extra;
  if (r.app.poolNode.project()?.stratum_port === port)
    throw new ApiError(409, "lang.poolnode.err_project_port", { field: "port" });
  throw new ApiError(404, "lang.poolnode.err_no_port");
}

const described = (p: PoolPortInput) => ({
  name: p.name,
  difficulty: p.difficulty,
  limit_connections: p.limit_connections,
});

async function createPort(r: RequestInfo) {
  const body = await parseBody(r.req, newPortBody);
  const project = r.app.poolNode.project();
  if (project !== null && body.currency !== undefined && coinOf(body.currency) !== project.coin)
    throw badRequest(KEY, { field: "currency", detail: project.coin });
  if (
    body.pool_address !== undefined &&
    body.pool_address !== "" &&
    Number(body.pool_address) !== ENDPOINT_ID
  )
    throw badRequest(KEY, { field: "pool_address" });
  checkFree(r.app, body.port);
  const input = {
    port: body.port,
    name: body.name,
    difficulty: body.difficulty,
    limit_connections: body.limit_connections,
  };
  let saved: Awaited<ReturnType<typeof r.app.poolNode.addPort>>;
  try {
    saved = await r.app.poolNode.addPort(input);
  } catch (e) {
    throw new ApiError(409, "lang.proxy.err_occupied", {
      field: "port",
      detail: e instanceof Error ? e.message : String(e),
    });
  }
  audit(r, `pool-node port ${saved.port}`, null, described(saved));
  const pushed = await pushToMembers(r, saved, body);
  return { ...saved, pushed };
}

/** Every member gets a proxy port whose pool is this port (spec §8), with no fee wallet. */
async function pushToMembers(r: RequestInfo, saved: PoolPortInput, body: z.infer<typeof newPortBody>) {
  const coin = r.app.poolNode.project()?.coin ?? "";
  const host = body.proxy_addr === "" ? r.url.hostname : body.proxy_addr;
  const memberPort = {
    port: body.member_port ?? saved.port,
    name: saved.name === "" ? `pool node ${saved.port}` : saved.name,
    currency: coin,
    category: "poolnode",
    limit_connections: saved.limit_connections,
    pool_address: `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${saved.port}`,
    connect_mode: 0,
    mode: 0,
    protocol: 0,
    status: 1,
    wallets: [{ addr: "", device: "", pool_address: "", ratio: 0 }],
  };
  const results = await pushPort(r.app, saved.port, memberPort);
  for (const p of results) {
    const c = r.app.remotes.get(p.remote);
    audit(r, `group-control client ${p.remote} (${c?.address ?? ""})`, null, {
      call: "POST /api/port/new",
      port: memberPort.port,
      result: p.error ?? `port ${p.id}`,
    });
  }
  return results;
}

async function updateExtra(r: RequestInfo) {
  const before = extraOf(r);
  const body = await parseBody(r.req, extraBody);
  const saved = await r.app.poolNode.updatePort({ port: before.port, ...body });
  if (saved === null) throw new ApiError(404, "lang.poolnode.err_no_port");
  audit(r, `pool-node port ${saved.port}`, described(before), described(saved));
  return saved;
}

async function removeExtra(r: RequestInfo) {
  const before = extraOf(r);
  // the members' ports first: forgetting the port forgets where it was pushed
  const removed = await unpushPort(r.app, before.port);
  for (const p of removed)
    audit(r, `group-control client ${p.remote}`, null, {
      call: `DELETE /api/port/${p.id}`,
      result: p.error ?? "removed",
    });
  await r.app.poolNode.removePort(before.port);
  audit(r, `pool-node port ${before.port}`, described(before), null);
  return { port: before.port, removed };
}

export const poolNodePortRoutes: Route[] = [
  nodeRoute("POST", "/api/poolnode/port/new", createPort, true),
  nodeRoute("GET", "/api/poolnode/ports", (r) => r.app.poolNode.ports()),
  nodeRoute("GET", "/api/poolnode/extra/:port", extraOf),
  nodeRoute("POST", "/api/poolnode/extra/:port", updateExtra, true),
  nodeRoute("DELETE", "/api/poolnode/extra/:port", removeExtra),
  nodeRoute("GET", "/api/poolnode/endpoints", (r) => {
    const coin = r.app.poolNode.project()?.coin ?? "";
    return [{ coin, id: ENDPOINT_ID, name: `${coin} daemon` }];
  }),
];
