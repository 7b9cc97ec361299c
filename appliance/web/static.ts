import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { contentSecurityPolicy } from "./csp.ts";
import { withBase } from "./page-base.ts";

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  immutable: boolean;
  /** pages only: what they may load and run */
  csp: string | null;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The console's files, held in memory with a gzip copy and an ETag each. Hashed assets
 * (under /assets/) are cached for a year; index.html is revalidated so an update shows at once.
 */
export class StaticAssets {
  private readonly files = new Map<string, Asset>();

  /** index.html as served under a secure route (its base rewritten); made once per route */
  private routedPage: { base: string; asset: Asset } | null = null;

  constructor(entries: Iterable<[string, Uint8Array<ArrayBuffer>]>) {
    for (const [path, body] of entries) this.files.set(path, toAsset(path, body));
  }

  get size(): number {
    return this.files.size;
  }

  /** Reads ui/dist from disk (development) — see fromEmbedded for the compiled executable. */
  static fromDirectory(dir: string): StaticAssets {
    const out: [string, Uint8Array<ArrayBuffer>][] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const full = join(d, name);
        if (statSync(full).isDirectory()) walk(full);
        else out.push([`/${relative(dir, full).split("\\").join("/")}`, new Uint8Array(readFileSync(full))]);
      }
    };
    if (existsSync(dir)) walk(dir);
    return new StaticAssets(out);
  }

  /** `base`: where the console lives ("/" or "/<secure route>/"), written into the page's base tag. */
  serve(path: string, req: Request, base = "/"): Response {
    let asset = path === PAGE ? undefined : this.files.get(path);
    // Client-side routes (no file extension) get the single-page app.
    if (!asset && (path === PAGE || extname(path) === "")) asset = this.page(base);
    if (!asset) {
      if (this.files.size === 0)
        return new Response("The console is not built: run `make ui`.", { status: 503 });
      return new Response("Not Found", { status: 404 });
    }
    const headers: Record<string, string> = {
      "content-type": asset.type,
      etag: asset.etag,
      "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      vary: "accept-encoding",
    };
    if (asset.csp !== null) headers["content-security-policy"] = asset.csp;
    if (req.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
    if (/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) {
      headers["content-encoding"] = "gzip";
      return new Response(asset.gzip, { headers });
    }
    return new Response(asset.body, { headers });
  }

  private page(base: string): Asset | undefined {
    const built = this.files.get(PAGE);
    if (!built || base === "/") return built;
    if (this.routedPage?.base !== base) {
      const html = withBase(new TextDecoder().decode(built.body), base);
      this.routedPage = { base, asset: toAsset(PAGE, new TextEncoder().encode(html)) };
    }
    return this.routedPage.asset;
  }
}

const PAGE = "/index.html";

function toAsset(path: string, body: Uint8Array<ArrayBuffer>): Asset {
  return {
    body,
    gzip: Bun.gzipSync(body, { level: 9 }),
    type: TYPES[extname(path)] ?? "application/octet-stream",
    etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
    immutable: path.startsWith("/assets/"),
    csp: extname(path) === ".html" ? contentSecurityPolicy(new TextDecoder().decode(body)) : null,
  };
}
