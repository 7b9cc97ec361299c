import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { allRoutes } from "../../appliance/web/api/index.ts";
import { loadConsoleAssets } from "../../appliance/web/console-assets.ts";
import { createHandler } from "../../appliance/web/handler.ts";
import { Router } from "../../appliance/web/router.ts";
import { Client, startTestAppliance, type TestAppliance } from "../support/appliance.ts";

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

describe("small hardening of the web server", () => {
  test("a malformed %-escape in a path is the client's error (400), not the server's", async () => {
    const res = await t.client.get<{ error: { key: string } }>("/api/port/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.body.error.key).toBe("lang.err.params");
  });

  test("the console page carries a Content-Security-Policy that allows exactly its own inline boot script", async () => {
    const res = await fetch(`${t.app.url()}/`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const html = await res.text();
    const inline = html.match(/<script>([\s\S]*?)<\/script>/)?.[1] ?? "";
    const hash = createHash("sha256").update(inline).digest("base64");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
  });

  test("with a secure route set, /healthz tells the version only inside the route or to this machine", async () => {
    expect((await t.client.post("/api/route", { k: "Farm/" })).status).toBe(200);
    try {
      // the real handler, as a request from a LAN address reaches it
      const handle = createHandler(t.app.ctx, new Router(allRoutes), await loadConsoleAssets());
      const lan = await handle(new Request(`${t.app.url()}/healthz`), "192.168.1.50");
      expect(await lan.json()).toEqual({ ok: true });
      const inside = await handle(new Request(`${t.app.url()}/Farm/healthz`), "192.168.1.50");
      expect(await inside.json()).toEqual({ ok: true, version: t.app.ctx.version });
      // the update supervisor probes the release it switched to from this machine
      const local = await fetch(`${t.app.url()}/healthz`);
      expect(await local.json()).toEqual({ ok: true, version: t.app.ctx.version });
    } finally {
      const inside = new Client(`${t.app.url()}/Farm`);
      inside.token = t.client.token;
      await inside.post("/api/route", { k: "" });
    }
  });
});
