/**
 * How every /api/poolnode/* call answers (spec §4, §8): `{status: 0, data}`, or `{status: 4}` while
 * the node is not activated, which sends the console to /system/regpool.
 */
import { ApiError } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";

const NOT_ACTIVATED = 4;
export const notActivated = () => Response.json({ status: NOT_ACTIVATED, message: "not activated" });
export const ok = (data: unknown) => Response.json({ status: 0, data });

/** A call that answers once a project is activated (running or not), with the handler's data. */
export function nodeRoute(
  method: "GET" | "POST" | "DELETE",
  path: string,
  handler: (r: RequestInfo) => unknown,
  reauth = false,
): Route {
  return {
    method,
    path,
    reauth,
    handler: async (r) =>
      r.app.poolNode.state() === "not_activated" ? notActivated() : ok(await handler(r)),
  };
}

/** The daemon did not answer (or answered with an error): 502 with what it said. */
export function daemonFailure(e: unknown): ApiError {
  return new ApiError(502, "lang.poolnode.err_daemon", {
    detail: e instanceof Error ? e.message : String(e),
  });
}
