/**
 * Spec §7's `pool/asset*` calls: the coins the node serves and which one its pages show. A node here
 * serves one coin, its project's, on one daemon; the calls say so, and choosing another coin is
 * refused (`lang.poolnode.err_asset`) rather than accepted and ignored.
 */
import { z } from "zod";
import { POOL_COINS } from "../../poolnode/pool/coins.ts";
import type { PoolNodeService } from "../../poolnode/service.ts";
import { parseBody } from "../body.ts";
import { badRequest, notFound } from "../errors.ts";
import type { Route } from "../router.ts";
import { nodeRoute } from "./poolnode-reply.ts";

const KEY = "lang.poolnode.err_asset";
const assetBody = z.object({ coin: z.string(KEY).trim().toUpperCase() });

/** The node's one coin: its name, its PoW, its daemon (endpoint 1) and whether the pool runs on it. */
function asset(node: PoolNodeService) {
  // nodeRoute answers status 4 before there is a project, so this only guards the type
  const p = node.project();
  if (p === null) throw notFound();
  return {
    coin: p.coin,
    algorithm: POOL_COINS[p.coin].algorithm,
    endpoint: 1,
    state: node.state(),
    selected: true,
  };
}

export const poolNodeAssetRoutes: Route[] = [
  nodeRoute("GET", "/api/poolnode/pool/assets", ({ app }) => [asset(app.poolNode)]),
  nodeRoute("GET", "/api/poolnode/pool/asset/selected", ({ app }) => asset(app.poolNode)),
  nodeRoute("GET", "/api/poolnode/pool/asset/status", ({ app }) => asset(app.poolNode)),
  nodeRoute("POST", "/api/poolnode/pool/asset", async ({ app, req }) => {
    const { coin } = await parseBody(req, assetBody);
    const served = asset(app.poolNode);
    if (coin !== served.coin) throw badRequest(KEY, { field: "coin", value: coin, detail: served.coin });
    return served;
  }),
  // the selection can only be the node's coin, so resetting it is answering with it
  nodeRoute("POST", "/api/poolnode/pool/asset/reset", ({ app }) => asset(app.poolNode)),
];
