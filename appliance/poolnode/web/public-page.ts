/**
 * The pool node's public page: a listener of its own (port, route, TLS with the appliance's
 * certificate) where the pool's miners see its figures, how to connect, its blocks and payouts, and
 * look up their address. Nobody logs in to it, so it only reads: the pool's overview is read from the
 * ledger at most once every OVERVIEW_TTL_MS whatever the request rate, and address lookups go through
 * the window worker, whose bounded queue answers "busy" rather than holding the pool's thread.
 */
import type { Server } from "bun";
import type { StoredBlock } from "../../store/poolnode-ledger.ts";
import type { SettingsStore } from "../../store/settings.ts";
import { WorkerBusy } from "../../workers.ts";
import type { PoolNodeService, PoolPortView } from "../service.ts";
import { addressView, type PoolStatsView, poolStats } from "../views.ts";
import { type PageView, renderPage } from "./page-html.ts";
import { type PageSettings, readPageSettings } from "./page-settings.ts";

const OVERVIEW_TTL_MS = 5_000;
const LISTED = 10;
/** Base58 and bech32 addresses are letters and digits; anything else is not an address of a pool coin. */
const ADDRESS = /^[A-Za-z0-9]{1,128}$/;

const HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

interface Overview {
  at: number;
  stats: PoolStatsView;
  ports: PoolPortView[];
  blocks: StoredBlock[];
  payouts: PageView["payouts"];
}

export interface PageState {
  listening: boolean;
  /** why an enabled page does not listen ("" when it does or is off) */
  error: string;
}

export class PublicPage {
  private server: Server<undefined> | null = null;
  private error = "";
  private overview: Overview | null = null;

  constructor(
    private readonly settings: SettingsStore,
    private readonly node: PoolNodeService,
    private readonly certificate: () => { cert: string; key: string },
    private readonly hostname: string,
    private readonly log: (level: "running" | "error", message: string) => void,
  ) {}

  get state(): PageState {
    return { listening: this.server !== null, error: this.error };
  }

  /** The port it listens on now (0: none). */
  get port(): number {
    return this.server?.port ?? 0;
  }

  /** Listens as the stored settings say: stopped, then started again when enabled on an activated node. */
  async apply(): Promise<void> {
    await this.stop();
    const s = readPageSettings(this.settings);
    if (!s.enabled || this.node.project() === null) return;
    try {
      this.server = Bun.serve({
        hostname: this.hostname,
        port: s.port,
        ...(s.tls ? { tls: this.certificate() } : {}),
        fetch: (req) => this.handle(req, s),
      });
      this.log(
        "running",
        `pool-node public page on ${s.tls ? "https" : "http"}://${this.hostname}:${s.port}/${s.route}`,
      );
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.log("error", `pool-node public page did not start on port ${s.port}: ${this.error}`);
    }
  }

  async stop(): Promise<void> {
    this.error = "";
    this.overview = null;
    const s = this.server;
    this.server = null;
    await s?.stop(true);
  }

  private async handle(req: Request, s: PageSettings): Promise<Response> {
    if (req.method !== "GET" && req.method !== "HEAD")
      return new Response("method not allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
    const url = new URL(req.url);
    const base = `/${s.route}`;
    if (s.route !== "" && url.pathname === base.slice(0, -1))
      return new Response(null, { status: 301, headers: { location: base } });
    const project = this.node.project();
    if (project === null) return new Response("not found\n", { status: 404 });
    if (url.pathname === `${base}stats.json`)
      return Response.json(
        { ...this.read().stats, running: this.node.running !== null },
        { headers: HEADERS },
      );
    if (url.pathname !== base) return new Response("not found\n", { status: 404 });

    const o = this.read();
    const asked = url.searchParams.get("address")?.trim();
    let lookup: PageView["lookup"] = null;
    let status = 200;
    if (asked !== undefined && asked !== "") {
      lookup = { address: asked.slice(0, 128), view: null, error: null };
      if (!ADDRESS.test(asked)) {
        lookup.error = `Not a ${project.coin} address.`;
        status = 400;
      } else {
        try {
          lookup.view = await addressView(this.node, asked);
        } catch (e) {
          if (!(e instanceof WorkerBusy)) throw e;
          lookup.error = "The pool is busy; try again in a moment.";
          status = 429;
        }
      }
    }
    const html = renderPage({
      title: s.title,
      notice: s.notice,
      coin: project.coin,
      running: this.node.running !== null,
      host: url.hostname,
      ports: o.ports,
      fee: project.fee,
      pplnsWindow: project.pplns_window,
      payoutThreshold: project.payout_threshold,
      stats: o.stats,
      blocks: o.blocks,
      payouts: o.payouts,
      lookup,
    });
    return new Response(html, {
      status,
      headers: { ...HEADERS, "content-type": "text/html; charset=utf-8" },
    });
  }

  /** The pool's overview, read again once it is older than the TTL. */
  private read(now = Date.now()): Overview {
    const o = this.overview;
    if (o !== null && now - o.at < OVERVIEW_TTL_MS) return o;
    const store = this.node.store;
    const fresh: Overview = {
      at: now,
      stats: poolStats(this.node, now) as PoolStatsView,
      ports: this.node.ports(),
      blocks: store.blocks(LISTED),
      payouts: store
        .payouts(LISTED)
        .map((p) => ({ created_at: p.created_at, txid: p.txid, total: p.total, state: p.state })),
    };
    this.overview = fresh;
    return fresh;
  }
}
