import type { MachineScope } from "../auth/machine-tokens.ts";
import type { AppContext } from "./app-context.ts";
import type { Credential } from "./credential.ts";
import { badRequest } from "./errors.ts";

export type Method = "GET" | "POST" | "DELETE" | "PUT";

export interface RequestInfo {
  req: Request;
  url: URL;
  params: Record<string, string>;
  /** the client address (for rate limits and logs) */
  address: string;
  app: AppContext;
  /** who is calling (web/handler.ts), for the audit log */
  credential: Credential;
  /** "POST /api/wallet/3" (below the secure route), for the audit log */
  action: string;
}

export type Handler = (r: RequestInfo) => Response | Promise<Response>;

export interface Route {
  method: Method;
  /** e.g. "/api/port/:id/start"; segments starting with ":" capture */
  path: string;
  handler: Handler;
  /** answers without a bearer token (login page calls) */
  public?: boolean;
  /**
   * The machine credential that may call this route besides an admin session: the group-control
   * token (a central instance reading and starting ports) or the metrics token (a scraper).
   */
  scope?: MachineScope;
  /**
   * A machine credential that may call this route for some requests only: the group-control token
   * may create and delete pool-node ports (docs/pool-node.md "Group control") and no other port.
   * `allows` reads the request (a clone of it) without consuming it.
   */
  scopeWhen?: {
    scope: MachineScope;
    allows(r: { req: Request; params: Record<string, string>; app: AppContext }): boolean | Promise<boolean>;
  };
  /**
   * Changes pools, wallets, ratios, the account, tokens, the route, the web port or the release: an
   * admin session may call it only within REAUTH_WINDOW_MS of proving its password (web/handler.ts).
   */
  reauth?: boolean;
}

interface Compiled {
  route: Route;
  segments: string[];
}

/** A small segment-matching router: literal segments win over captures, so /api/port/new beats /api/port/:id. */
export class Router {
  private readonly byMethod = new Map<string, Compiled[]>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      const list = this.byMethod.get(route.method) ?? [];
      list.push({ route, segments: split(route.path) });
      this.byMethod.set(route.method, list);
    }
    for (const list of this.byMethod.values()) list.sort((a, b) => specificity(b) - specificity(a));
  }

  match(method: string, pathname: string): { route: Route; params: Record<string, string> } | null {
    const list = this.byMethod.get(method);
    if (!list) return null;
    const parts = split(pathname);
    for (const c of list) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i] as string;
        const part = parts[i] as string;
        if (seg.startsWith(":")) params[seg.slice(1)] = decodeSegment(part);
        else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (ok) return { route: c.route, params };
    }
    return null;
  }

  /** Methods that some route answers for this path (for 405 replies). */
  allowed(pathname: string): string[] {
    return [...this.byMethod.keys()].filter((m) => this.match(m, pathname));
  }
}

/** A captured segment; a malformed %-escape is the client's error (400), not the server's. */
function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badRequest("lang.err.params");
  }
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

function specificity(c: Compiled): number {
  return c.segments.reduce((n, s) => n * 2 + (s.startsWith(":") ? 0 : 1), 1);
}
