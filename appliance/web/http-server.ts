import type { Server } from "bun";
import { DEFAULT_WEB_PORT, WEB_PORT_SETTING } from "./api/port-guards.ts";
import type { AppContext } from "./app-context.ts";

export const WEB_TLS_SETTING = "web_tls";

export interface TlsMaterial {
  cert: string;
  key: string;
}

/**
 * The console/API listener. Web port and HTTPS come from the settings (the command line's --web-port
 * wins, for tests and first runs); `restart` rebinds in-process so a change needs no supervisor.
 */
export class WebServer {
  private server: Server<undefined> | null = null;
  private boundPort: number | null = null;
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
    const useTls = this.app.settings.get<boolean>(WEB_TLS_SETTING, false);
    const handle = this.handle;
    this.server = Bun.serve({
      hostname: this.app.config.host,
      port: this.desiredPort(),
      tls: useTls ? this.tls() : undefined,
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
    this.boundPort = this.server.port ?? null;
    this.onListen(this.url);
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
    try {
      this.start();
    } catch (err) {
      this.server = old;
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
    await this.server?.stop(true);
    this.server = null;
  }
}
