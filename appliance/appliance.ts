import { join } from "node:path";
import { AlertService, type AlertTiming } from "./alerts/alert-service.ts";
import { EngineSources } from "./alerts/engine-sources.ts";
import { buildContext, openFoundation, VERSION } from "./app.ts";
import { INITIAL_PASSWORD_FILE } from "./auth/account.ts";
import { announcePassword } from "./auth/password-notice.ts";
import type { Config } from "./config.ts";
import type { EngineTiming } from "./domain/engine.ts";
import { RMS_DEFAULTS, RMS_SETTING, RMS_UPSTREAM_SETTING, type RmsSettings } from "./domain/rms.ts";
import { EngineThread } from "./engine/engine-thread.ts";
import { SeriesStore } from "./stats/series-store.ts";
import { targetsInForce } from "./stats/targets-in-force.ts";
import { pushOverrides } from "./store/ratios.ts";
import { allRoutes } from "./web/api/index.ts";
import { WEB_PORT_SETTING } from "./web/api/port-guards.ts";
import { PUMP_T_SETTING } from "./web/api/preferences.ts";
import { KENC_SETTING } from "./web/api/security.ts";
import type { AppContext } from "./web/app-context.ts";
import { loadConsoleAssets } from "./web/console-assets.ts";
import { createHandler } from "./web/handler.ts";
import { WebServer } from "./web/http-server.ts";
import { Router } from "./web/router.ts";

export interface Appliance {
  ctx: AppContext;
  /** the console's base URL, e.g. http://127.0.0.1:8080 */
  url(): string;
  /** the console's HTTPS base URL, e.g. https://127.0.0.1:8443 ("" when it is not offered) */
  httpsUrl(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** where status lines go (stdout for the CLI) */
  say?: (line: string) => void;
  /** shorter engine timings, for tests */
  timing?: Partial<EngineTiming>;
  /** the time in ms for sessions and the audit log; tests move it instead of waiting */
  clock?: () => number;
  /** shorter alert timings (evaluation tick, hashrate windows, retries), for tests */
  alertTiming?: Partial<AlertTiming>;
  /**
   * The engine's thread ended on an error, taking every port with it. The service exits so that
   * systemd starts it again with every port (main.ts); tests keep the default, which only logs.
   */
  onEngineFailure?: (reason: string) => void;
}

/** Opens the data dir, starts every active port and the web server. */
export async function startAppliance(config: Config, opts: StartOptions = {}): Promise<Appliance> {
  const say = opts.say ?? (() => {});
  const f = openFoundation(config, opts.clock);
  const firstPassword = await f.account.ensure();
  if (config.defaultWebPort !== null && f.settings.get<number | null>(WEB_PORT_SETTING, null) === null) {
    f.settings.set(WEB_PORT_SETTING, config.defaultWebPort);
  }
  if (firstPassword) {
    const intro = `First start: admin user "${f.account.username()}", password`;
    announcePassword(say, intro, firstPassword, join(config.dataDir, INITIAL_PASSWORD_FILE));
  }
  if (config.testCaptcha !== null) {
    say("WARNING: --test-captcha is set: every captcha answer is fixed. Never use this outside tests.");
  }
  // The fee audit learns who each target is when it writes an hour (the engine is made just below).
  const series = new SeriesStore(f.db, (portId) => {
    const port = f.ports.get(portId);
    if (!port) return null;
    const known = engine.feeInForce(portId);
    return targetsInForce(port, known?.fee ?? null, known?.standby ?? false);
  });
  series.start();
  const certificate = f.certificates.current();
  // The engine runs on its own thread: what it reads of the appliance goes over now and on each
  // change (the certificate below, the KENC key, blacklists, RMS settings and upstream RMS password in
  // their API calls).
  const engine = new EngineThread({
    environment: {
      certificate: { cert: certificate.cert, key: certificate.key },
      kencKey: f.settings.get<string>(KENC_SETTING, ""),
      bannedIps: f.blacklists.list("ip"),
      bannedWallets: f.blacklists.list("wallet"),
      rms: f.settings.getObject<RmsSettings>(RMS_SETTING, RMS_DEFAULTS),
      rmsUpstreamPassword: f.settings.get<string>(RMS_UPSTREAM_SETTING, ""),
    },
    events: {
      log: (level, portId, message) => {
        f.logs.add(
          level === "error" ? "error" : "running",
          portId === null ? message : `port ${portId}: ${message}`,
        );
      },
      series,
      poolMoved: (portId, move) => alerts.poolMoved(portId, move),
      failed: (reason) => opts.onEngineFailure?.(reason),
    },
    timing: opts.timing,
  });
  const runningPorts = () =>
    f.ports
      .list()
      .filter((p) => engine.runState(p.id) !== "closed")
      .map((p) => ({ id: p.id, port: p.port, name: p.name }));
  const alerts = new AlertService(
    f.db,
    f.settings,
    new EngineSources(
      (portIds) => engine.alertReadings(portIds),
      runningPorts,
      config.dataDir,
      () => f.certificates.current().cert,
    ),
    () => ctx.uuid,
    (level, message) => f.logs.add(level, message),
    opts.alertTiming,
  );
  let web: WebServer | null = null;
  const ctx = buildContext(
    config,
    f,
    engine,
    series,
    {
      restart: (reason) => web?.restart(reason),
      port: () => web?.port ?? 0,
      httpsPort: () => web?.httpsPort ?? 0,
      certificateChanged: () => {
        web?.certificateChanged();
        if (ctx.poolPage.state.listening) void ctx.poolPage.apply();
        const { cert, key } = f.certificates.current();
        return engine.setEnvironment({ certificate: { cert, key } });
      },
    },
    alerts,
  );
  web = new WebServer(
    ctx,
    createHandler(ctx, new Router(allRoutes), await loadConsoleAssets()),
    () => f.certificates.current(),
    (url) => say(`listening on ${url}`),
  );
  engine.setFeeHoldSeconds(f.settings.get<number>(PUMP_T_SETTING, 0));
  const overrides = f.ratios.all();
  for (const port of f.ports.list()) {
    pushOverrides(engine, port.id, overrides.get(port.id) ?? []);
    await engine.apply(port).catch((err: unknown) => {
      f.logs.add(
        "error",
        `port ${port.port} did not start: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  }
  web.start();
  await ctx.poolNode.resume();
  await ctx.poolPage.apply();
  ctx.fleet.start();
  alerts.start();
  f.logs.add("running", `pithead ${VERSION} started`);
  const server = web;
  return {
    ctx,
    url: () => server.url,
    httpsUrl: () => server.httpsUrl,
    async stop() {
      await ctx.fleet.stop();
      await alerts.stop();
      await server.stop();
      await ctx.poolPage.stop();
      await ctx.poolNode.shutdown();
      await engine.shutdown();
      series.close();
      f.logs.add("running", "pithead stopped");
      f.logs.close();
      f.db.close();
    },
  };
}
