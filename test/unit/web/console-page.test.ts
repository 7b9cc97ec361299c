import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { consoleBase, withBase } from "../../../appliance/web/page-base.ts";
import { StaticAssets } from "../../../appliance/web/static.ts";

// The template as committed: the built page differs only in the script's file name.
const html = readFileSync(join(import.meta.dir, "../../../ui/index.html"), "utf8").replace(
  "%APP%",
  "assets/app-TEST.js",
);
const enc = (s: string) => new TextEncoder().encode(s);
const assets = new StaticAssets([
  ["/index.html", enc(html)],
  ["/assets/app-TEST.js", enc("export {};")],
]);
const req = new Request("http://box/");

describe("the console page's base", () => {
  test("the secure route names the base; no route is the root", () => {
    expect(consoleBase("")).toBe("/");
    expect(consoleBase("Farm/")).toBe("/Farm/");
  });

  test("the base tag comes before the module script, so the preload scanner resolves it under the route", async () => {
    const page = await assets.serve("/system/pool", req, "/Farm/").text();
    const base = page.indexOf('<base href="/Farm/">');
    expect(base).toBeGreaterThan(0);
    expect(base).toBeLessThan(page.indexOf('<script type="module" src="assets/app-TEST.js">'));
  });

  test("at the root the page is the file as built", async () => {
    expect(await assets.serve("/system/pool", req).text()).toBe(html);
    expect(await assets.serve("/", req, "/").text()).toBe(html);
  });

  test("the CSP still allows exactly the inline boot script, and each base has its own ETag", () => {
    const routed = assets.serve("/login", req, "/Farm/");
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const hash = createHash("sha256").update(inline).digest("base64");
    expect(routed.headers.get("content-security-policy")).toContain(`'sha256-${hash}'`);
    expect(routed.headers.get("etag")).not.toBe(assets.serve("/login", req).headers.get("etag"));
  });

  test("a page without a base tag is refused loudly rather than served without one", () => {
    expect(() => withBase("<html><head></head></html>", "/Farm/")).toThrow();
  });
});
