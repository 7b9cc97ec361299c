/**
 * The pool node's daemon: `ping/{id}` (the RPC round trip and how far the daemon has synced) and
 * `update/address` (where the coinbases pay; checked with the daemon's validateaddress, used by the
 * next job without restarting the pool).
 */
import { z } from "zod";
import { AddressRefused } from "../../poolnode/service.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";
import { daemonFailure, nodeRoute } from "./poolnode-reply.ts";

const ENDPOINT_ID = "1";
const addressBody = z.object({
  address: z.string("lang.poolnode.err_address").trim().min(1, "lang.poolnode.err_address").max(128),
});

async function ping(r: RequestInfo) {
  // the spec's ?k= names the coin for some daemons; this node has one daemon, whose id is 1
  if (r.params.id !== ENDPOINT_ID) throw new ApiError(404, "lang.err.not_found");
  try {
    return { id: Number(ENDPOINT_ID), ...(await r.app.poolNode.ping()) };
  } catch (e) {
    throw daemonFailure(e);
  }
}

async function updateAddress(r: RequestInfo) {
  const { address } = await parseBody(r.req, addressBody);
  const before = r.app.poolNode.project()?.pool_address ?? null;
  try {
    await r.app.poolNode.updateAddress(address);
  } catch (e) {
    if (e instanceof AddressRefused)
      throw badRequest("lang.poolnode.err_address", { field: "address", value: address });
    throw daemonFailure(e);
  }
  audit(r, "pool-node address", { pool_address: before }, { pool_address: address });
  return { pool_address: address };
}

export const poolNodeDaemonRoutes: Route[] = [
  nodeRoute("GET", "/api/poolnode/ping/:id", ping),
  nodeRoute("POST", "/api/poolnode/update/address", updateAddress, true),
];
