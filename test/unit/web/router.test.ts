import { describe, expect, test } from "bun:test";
import { parseRoute } from "../../../appliance/web/api/security.ts";
import { type Route, Router } from "../../../appliance/web/router.ts";
import { StaticAssets } from "../../../appliance/web/static.ts";

const h = () => new Response("");
const routes: Route[] = [
  { method: "GET", path: "/api/port/:id", handler: h },
  { method: "POST", path: "/api/port/new", handler: h },
  { method: "POST", path: "/api/port/:id", handler: h },
  { method: "GET", path: "/api/port/:id/g/wallets/:collect", handler: h },
];

describe("router", () => {
  const r = new Router(routes);
  test("literal segments win over captures", () => {
    expect(r.match("POST", "/api/port/new")?.route.path).toBe("/api/port/new");
    expect(r.match("POST", "/api/port/7")?.params).toEqual({ id: "7" });
  });
  test("captures are URL-decoded and segment counts must match", () => {
    expect(r.match("GET", "/api/port/3/g/wallets/1")?.params).toEqual({ id: "3", collect: "1" });
    expect(r.match("GET", "/api/port/a%2Fb")?.params).toEqual({ id: "a/b" });
    expect(r.match("GET", "/api/port")).toBeNull();
  });
  test("tells which methods a path answers", () => {
    expect(r.allowed("/api/port/new").sort()).toEqual(["GET", "POST"]);
  });
});

describe("secure route rule (spec §5)", () => {
  test("letters only, sent with one trailing slash; empty clears", () => {
    expect(parseRoute("Farm/")).toBe("Farm/");
    expect(parseRoute("")).toBe("");
    for (const bad of ["Farm", "/Farm/", "Fa//", "F?/", "F1/", "a/b/"]) expect(parseRoute(bad)).toBeNull();
  });
});

describe("static console files", () => {
  const assets = new StaticAssets([
    ["/index.html", new TextEncoder().encode("<html>console</html>")],
    ["/assets/app-1a2b.js", new TextEncoder().encode("console.log(1)".repeat(100))],
  ]);
  const req = (path: string, headers: Record<string, string> = {}) =>
    new Request(`http://x${path}`, { headers });

  test("hashed assets are cached for a year; index.html is revalidated", () => {
    expect(assets.serve("/assets/app-1a2b.js", req("/")).headers.get("cache-control")).toContain("immutable");
    expect(assets.serve("/index.html", req("/")).headers.get("cache-control")).toBe("no-cache");
  });
  test("client-side routes get the app; unknown files 404", async () => {
    expect(await assets.serve("/system/pool", req("/")).text()).toBe("<html>console</html>");
    expect(assets.serve("/missing.js", req("/")).status).toBe(404);
  });
  test("gzip when accepted, 304 on a matching ETag", () => {
    const gz = assets.serve("/assets/app-1a2b.js", req("/", { "accept-encoding": "gzip, br" }));
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const etag = gz.headers.get("etag") ?? "";
    expect(assets.serve("/assets/app-1a2b.js", req("/", { "if-none-match": etag })).status).toBe(304);
  });
});
