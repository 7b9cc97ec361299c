import type { Server } from "bun";
import { DEFAULT_WEB_PORT, WEB_PORT_SETTING } from "./api/port-guards.ts";
import type { AppContext } from "./app-context.ts";

export const WEB_TLS_SETTING = "web_tls";
/** Where the console is offered over HTTPS beside plain HTTP (issue 8: HTTPS from the first start). */
export const DEFAULT_HTTPS_PORT = 8443;

export interface TlsMaterial {
  cert: string;
  key: string;
}

/**
 * The console/API listener. Web port and HTTPS come from the settings (the command line's --web-port
 * wins, for tests and first runs); `restart` rebinds in-process so a change needs no supervisor.
 * While the web port serves plain HTTP, a second listener offers the same console over HTTPS with the
 * appliance's certificate (the self-signed one made at first start until the operator uploads one).
 */
export class WebServer {
  private server: Server<undefined> | null = null;
  private boundPort: number | null = null;
  private httpsServer: Server<undefined> | null = null;
  private httpsBound: number | null = null;
  private readonly storedAtStart: number;

  constructor(
    private readonly app: AppContext,
    private readonly handle: (req: Request, address: string) => Promise<Response>,
    private readonly tls: () => TlsMaterial,
    private readonly onListen: (url: string) => void,
  ) {
    this.storedAtStart = app.settings.get<number>(WEB_PORT_SETTING, DEFAULT_WEB_PORT);
  }

  /** the port bound now, 0 while not listening */
  get port(): number {
    return this.boundPort ?? 0;
  }

  get url(): string {
    return this.server ? this.server.url.toString().replace(/\/$/, "") : "";
  }

  /** the port the console answers HTTPS on: the web port itself when HTTPS is on, 0 when nowhere */
  get httpsPort(): number {
    if (this.server && this.useTls()) return this.port;
    return this.httpsServer ? (this.httpsBound ?? 0) : 0;
  }

  get httpsUrl(): string {
    if (this.server && this.useTls()) return this.url;
    return this.httpsServer ? this.httpsServer.url.toString().replace(/\/$/, "") : "";
  }

  private useTls(): boolean {
    return this.app.settings.get<boolean>(WEB_TLS_SETTING, false);
  }

  /** The port to listen on: --web-port until the operator sets one in the console, then the setting. */
  private desiredPort(): number {
    // --web-port 0 (tests) means "any free port" once, and a restart keeps the port it got.
    const stored = this.app.settings.get<number>(WEB_PORT_SETTING, DEFAULT_WEB_PORT);
    const cli =
      this.app.config.webPort === 0 && this.boundPort !== null ? this.boundPort : this.app.config.webPort;
    return cli !== null && stored === this.storedAtStart ? cli : stored;
  }

  /** Binds a new listener; throws (leaving the current one in place) when the port cannot be bound. */
  start(): void {
    const useTls = this.useTls();
    this.server = this.listen(this.desiredPort(), useTls);
    this.boundPort = this.server.port ?? null;
    this.onListen(this.url);
    this.startHttps(useTls);
  }

  private listen(port: number, tls: boolean): Server<undefined> {
    const handle = this.handle;
    return Bun.serve({
      hostname: this.app.config.host,
      port,
      tls: tls ? this.tls() : undefined,
      maxRequestBodySize: 16 * 1024 * 1024,
      fetch(req, server) {
        return handle(req, server.requestIP(req)?.address ?? "");
      },
      error() {
        return Response.json(
          { error: { key: "lang.err.fatal", message: "Fatal error, contact the administrator" } },
          { status: 500 },
        );
      },
    });
  }

  /**
   * The HTTPS listener beside plain HTTP. A port it cannot bind is logged, not fatal: the console
   * stays reachable over HTTP, and GET /api/web/tls answers https_port 0.
   */
  private startHttps(webIsTls: boolean): void {
    if (webIsTls) return;
    // --https-port 0 (tests) means "any free port" once; a restart keeps the port it got
    const wanted = this.app.config.httpsPort ?? DEFAULT_HTTPS_PORT;
    const port = wanted === 0 && this.httpsBound !== null ? this.httpsBound : wanted;
    try {
      this.httpsServer = this.listen(port, true);
      this.httpsBound = this.httpsServer.port ?? null;
      this.onListen(`HTTPS ${this.httpsUrl}`);
    } catch (err) {
      this.app.logs.add(
        "error",
        `HTTPS console not offered on port ${port}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  private async stopHttps(): Promise<void> {
    await this.httpsServer?.stop(true);
    this.httpsServer = null;
  }

  /** A new certificate: the listeners that serve TLS start again with it; plain HTTP stays up. */
  certificateChanged(): void {
    if (this.useTls()) {
      this.restart("certificate changed");
      return;
    }
    setTimeout(async () => {
      await this.stopHttps();
      if (this.server) this.startHttps(false);
    }, 200);
  }

  /** Lets the reply to the request that asked for it go out first, then rebinds. */
  restart(reason: string): void {
    this.app.logs.add("running", `web server restart: ${reason}`);
    setTimeout(() => void this.rebind(), 200);
  }

  /**
   * A new port is bound before the old listener closes: if it cannot be bound, the console stays
   * where it is (and the setting goes back) instead of locking the operator out until a restart.
   */
  private async rebind(): Promise<void> {
    const old = this.server;
    if (old === null || this.desiredPort() === this.boundPort) {
      await this.stop();
      this.start();
      return;
    }
    const previous = this.boundPort;
    await this.stopHttps();
    try {
      this.start();
    } catch (err) {
      this.server = old;
      this.startHttps(this.useTls());
      if (previous !== null) this.app.settings.set(WEB_PORT_SETTING, previous);
      this.app.logs.add(
        "error",
        `web port not changed, staying on ${previous}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return;
    }
    await old.stop(true);
  }

  async stop(): Promise<void> {
    await this.stopHttps();
    await this.server?.stop(true);
    this.server = null;
  }
}
