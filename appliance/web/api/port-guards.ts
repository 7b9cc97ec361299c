import type { Port } from "../../domain/port.ts";
import type { AppContext } from "../app-context.ts";
import { ApiError, notFound } from "../errors.ts";
import type { MessageKey } from "../messages.ts";

export const WEB_PORT_SETTING = "web_port";
export const DEFAULT_WEB_PORT = 8080;

export function portOr404(
  app: AppContext,
  idText: string | undefined,
  key: MessageKey = "lang.err.not_found",
): Port {
  const id = Number(idText);
  const port = Number.isInteger(id) ? app.ports.get(id) : null;
  if (!port) throw notFound(key);
  return port;
}

/** A port being started or stopped must finish before the next action (spec §4 queued state). */
export function notQueuing(app: AppContext, id: number): void {
  if (app.engine.runState(id) === "queuing") throw new ApiError(409, "lang.proxy.err_queuing");
}

/**
 * Refuses a port number another proxy port already has (duplicate), the pool node's, or that the web
 * console or another program holds (occupied). `ownId` is the port being edited, whose own listener is fine.
 */
export function checkPortNumber(app: AppContext, number: number, active: boolean, ownId?: number): void {
  const other = app.ports.byNumber(number);
  if (other && other.id !== ownId) throw new ApiError(409, "lang.proxy.err_duplicate", { field: "port" });
  // held even while the pool is stopped: it takes the port back when it starts
  if (app.poolNode.holdsPort(number))
    throw new ApiError(409, "lang.proxy.err_poolnode_port", { field: "port" });
  if (number === app.settings.get<number>(WEB_PORT_SETTING, DEFAULT_WEB_PORT)) {
    throw new ApiError(409, "lang.proxy.err_occupied", { field: "port" });
  }
  const own = ownId !== undefined ? app.ports.get(ownId) : null;
  const ownRunning = own !== null && own.port === number && app.engine.runState(own.id) !== "closed";
  if (active && !ownRunning && !canBind(number))
    throw new ApiError(409, "lang.proxy.err_occupied", { field: "port" });
}

/** True when nothing listens on the port now (a listener is opened and closed again). */
export function canBind(port: number): boolean {
  try {
    const probe = Bun.listen({ hostname: "0.0.0.0", port, socket: { data() {} } });
    probe.stop(true);
    return true;
  } catch {
    return false;
  }
}
