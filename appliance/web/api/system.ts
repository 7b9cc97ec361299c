import { renderMetrics } from "../../ops/metrics.ts";
import { readProcess } from "../../ops/process-readings.ts";
import { databaseBytes } from "../../store/db.ts";
import type { LogKind } from "../../store/logs.ts";
import { pushOverrides } from "../../store/ratios.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { ok } from "../body.ts";
import type { Route } from "../router.ts";
import { withConfiguredFee } from "./configured-fee.ts";
import { fleetReadings } from "./fleet-readings.ts";

function logRoute(
  path: string,
  kind: LogKind,
  filter?: (msg: string, params: Record<string, string>) => boolean,
): Route {
  return {
    method: "GET",
    path,
    handler: ({ app, url, params }) => {
      const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 200) || 200, 1), 1000);
      const rows = app.logs.list(kind, filter ? 5000 : limit);
      return Response.json(filter ? rows.filter((r) => filter(r.message, params)).slice(0, limit) : rows);
    },
  };
}

function versionInfo(app: AppContext) {
  return {
    version: app.version,
    runtime: `bun ${Bun.version}`,
    arch: process.arch,
    platform: process.platform,
  };
}

export const systemRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/local/version",
    scope: "control",
    handler: ({ app }) => Response.json(versionInfo(app)),
  },
  {
    method: "GET",
    path: "/api/sys/starttime",
    handler: ({ app }) =>
      Response.json({
        start: new Date(app.startedAt).toISOString(),
        uptime_seconds: Math.floor((Date.now() - app.startedAt) / 1000),
      }),
  },
  { method: "GET", path: "/api/sysinfo", handler: ({ app }) => Response.json(app.sysinfo.read()) },
  {
    method: "GET",
    path: "/api/sys/base/info",
    handler: ({ app }) => {
      const info = app.sysinfo.read();
      return Response.json({
        uuid: app.uuid,
        ...versionInfo(app),
        host: info.host,
        cpu: info.cpu,
        memory_total: info.memory.total,
      });
    },
  },
  {
    method: "GET",
    path: "/api/sys/stat",
    scope: "control",
    handler: async ({ app }) => {
      const info = app.sysinfo.read();
      const ports = app.ports.list();
      const stats = await Promise.all(ports.map((p) => app.engine.stat(p.id)));
      return Response.json({
        cpu: info.cpu.usage_percent,
        memory: info.memory,
        disk: info.disk,
        load: info.load,
        network: {
          rx_rate: info.network.rx_rate,
          tx_rate: info.network.tx_rate,
          rx: info.network.rx_bytes,
          tx: info.network.tx_bytes,
        },
        uptime_seconds: Math.floor((Date.now() - app.startedAt) / 1000),
        ports: {
          total: ports.length,
          active: ports.filter((p) => app.engine.runState(p.id) === "active").length,
        },
        online: stats.reduce((n, s) => n + s.online, 0),
        ...(await fleetReadings(app)),
      });
    },
  },
  { method: "GET", path: "/api/u/i", handler: ({ app }) => Response.json({ uuid: app.uuid }) },
  logRoute("/api/operation/log", "operation"),
  logRoute("/api/request/log", "request"),
  logRoute("/api/error/log", "error"),
  logRoute("/api/running/log", "running"),
  // Group control entries are written to the operation log with a "group <id>:" prefix.
  logRoute("/api/group/:gid/log", "operation", (msg, p) => msg.startsWith(`group ${p.gid}:`)),
  logRoute("/api/worker/:id/error/log", "error", (msg, p) => msg.includes(p.id ?? "\u0000")),
  {
    method: "POST",
    path: "/api/failed/reset",
    handler: ({ app, address }) => {
      // Lifts every failed-login lockout (an operator locked out by a typo from the farm's NAT address).
      app.throttle.reset();
      app.logs.add("operation", "failed-login lockouts cleared", address);
      return ok();
    },
  },
  {
    method: "POST",
    path: "/api/config/refresh",
    handler: async ({ app }) => {
      // Re-applies the stored configuration of every port to the engine (after an import or a manual DB restore).
      let applied = 0;
      for (const port of app.ports.list()) {
        pushOverrides(app.engine, port.id, app.ratios.list(port.id));
        await app.engine.apply(port);
        applied++;
      }
      return Response.json({ applied });
    },
  },
];

/**
 * Prometheus scrape target: a console session or `Authorization: Bearer <metrics token>`.
 * `?devices=1` adds per-device series (off by default: their number is the farm's device count).
 */
export const metricsRoute: Route = {
  method: "GET",
  path: "/api/metrics",
  scope: "metrics",
  handler: async ({ app, url }) => {
    const perDevice = url.searchParams.get("devices") === "1";
    const ports = await Promise.all(
      app.ports.list().map(async (port) => {
        const state = app.engine.runState(port.id);
        const [live, devices] = await Promise.all([
          app.engine.live.portStats(port.id),
          perDevice ? app.engine.live.workers(port.id) : [],
        ]);
        // fee configured is the configuration's, running or not (a stopped port's engine view is empty)
        const stats = withConfiguredFee(live, port, state === "active");
        return { port, state, stats, devices };
      }),
    );
    return new Response(
      renderMetrics({
        version: app.version,
        startTimeSeconds: Math.floor(app.startedAt / 1000),
        process: readProcess(),
        databaseBytes: databaseBytes(app.config.dataDir),
        perDevice,
        ports,
      }),
      { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } },
    );
  },
};

/** The read-only metrics token for a Prometheus scraper: shown to the admin, rotated on demand. */
export const metricsTokenRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/metrics/token",
    reauth: true,
    handler: ({ app }) => Response.json({ token: app.machines.get("metrics") }),
  },
  {
    method: "POST",
    path: "/api/metrics/token/refresh",
    reauth: true,
    handler: (r) => {
      const { app, address } = r;
      const before = app.machines.get("metrics");
      const token = app.machines.rotate("metrics");
      audit(r, "metrics token", { token: before }, { token });
      app.logs.add("operation", "metrics token replaced", address);
      return Response.json({ token });
    },
  },
];
