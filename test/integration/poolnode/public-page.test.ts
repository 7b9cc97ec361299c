/**
 * The pool node's public page on the real appliance and a real litecoind in regtest: set up through
 * spec §7's calls (port, route, title and notice, on), it answers on its own port under its route with
 * the pool's figures and how to connect; after a hand miner's block it lists the block, and an
 * address lookup shows that address's shares and worker. Hostile input is escaped or refused, the
 * page is served over TLS when asked (with a certificate uploaded through the page's own calls), comes
 * back after a restart, and is gone when switched off.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { makeSelfSigned } from "../../../appliance/ops/certificate.ts";
import type { PageSettingsView as PageState } from "../../../appliance/web/api/poolnode-page.ts";
import { freePort, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { submitPlan } from "../../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, RegtestPair } from "../../support/poolnode/regtest.ts";
import { untilAsync } from "../../support/stratum/port-fixture.ts";
import { servedFingerprint } from "../../support/tls-peer.ts";

const D = 2 ** -16;
const stratumPort = freePort();
const pagePort = freePort();
let chain: RegtestPair;
let t: TestAppliance;
let a: string;
let miner: HandMiner | null = null;

interface Reply<T> {
  status: number;
  data: T;
  error?: { key: string; field?: string; detail?: string };
}

const post = <T = PageState>(path: string, body?: unknown) => t.client.post<Reply<T>>(path, body);
const page = (path: string, init?: RequestInit & { tls?: { rejectUnauthorized: boolean } }) =>
  fetch(`http://127.0.0.1:${pagePort}${path}`, { redirect: "manual", ...init });
const text = async (path: string) => (await page(path)).text();

beforeAll(async () => {
  chain = await RegtestPair.start();
  const poolAddress = await cli(chain.node, "getnewaddress");
  a = await cli(chain.peer, "getnewaddress");
  t = await startTestAppliance();
  expect(
    (
      await t.client.post("/api/poolnode/project/apply", {
        coin: "LTC",
        rpc_url: chain.rpcUrl,
        rpc_cookie_file: chain.cookieFile,
        pool_address: poolAddress,
        fee: 0.01,
        pplns_window: 100 * D,
        difficulty: D,
        vardiff_seconds: 0,
        stratum_port: stratumPort,
      })
    ).status,
  ).toBe(200);
});

afterAll(async () => {
  miner?.close();
  await t?.close();
  await chain?.stop();
});

test("not activated: the page's calls answer status 4", async () => {
  for (const path of ["/api/poolnode/index/port", "/api/poolnode/route", "/api/poolnode/webconfig"])
    expect((await t.client.get<Reply<unknown>>(path)).body.status).toBe(4);
  expect((await post("/api/poolnode/enable/index/1")).body.status).toBe(4);
});

test("set up through its calls, the page answers on its port under its route, with the pool's figures and how to connect", async () => {
  expect((await t.client.post("/api/poolnode/project/active")).status).toBe(200);
  await untilAsync(
    async () =>
      (await t.client.get<Reply<{ templates: { active: number } }>>("/api/poolnode/project/info")).body.data
        .templates.active === 1,
  );
  const off = (await t.client.get<Reply<PageState>>("/api/poolnode/index/port")).body.data;
  expect(off).toEqual(expect.objectContaining({ enable: false, route: "", tls: false, listening: false }));

  // refused: a port the appliance uses, a port out of range, a route that is not letters
  const taken = await post("/api/poolnode/index/port", { port: stratumPort });
  expect(taken.status).toBe(409);
  expect(taken.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_port_in_use", detail: "pool-node port" }),
  );
  expect((await post("/api/poolnode/index/port", { port: 70_000 })).body.error?.key).toBe(
    "lang.poolnode.err_page_config",
  );
  expect((await post("/api/poolnode/route", { k: "a/b/" })).body.error?.key).toBe("lang.route.err_format");
  expect((await post("/api/poolnode/enable/index/2")).body.error?.key).toBe("lang.poolnode.err_page_config");

  expect((await post("/api/poolnode/index/port", { port: pagePort })).body.data.port).toBe(pagePort);
  expect((await post("/api/poolnode/route", { k: "pool/" })).body.data.route).toBe("pool/");
  const config = await post("/api/poolnode/webconfig", {
    title: "Farm <b>pool</b>",
    notice: "Payouts hourly",
  });
  expect(config.body.data).toEqual(
    expect.objectContaining({ title: "Farm <b>pool</b>", notice: "Payouts hourly" }),
  );
  const on = await post("/api/poolnode/enable/index/1");
  expect(on.body.data).toEqual(expect.objectContaining({ enable: true, listening: true, error: "" }));
  const info = (await t.client.get<Reply<Record<string, unknown>>>("/api/poolnode/project/info")).body.data;
  expect(info).toEqual(
    expect.objectContaining({ web_port: pagePort, web_route: "pool/", web_enable: true, tls: false }),
  );

  const res = await page("/pool/");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  const html = await res.text();
  expect(html).toContain("<h1>Farm &lt;b&gt;pool&lt;/b&gt;</h1>");
  expect(html).toContain("Payouts hourly");
  expect(html).toContain(`stratum+tcp://127.0.0.1:${stratumPort}`);
  expect(html).toContain("pool fee 1.00 %");
  expect(html).not.toContain("<script");
  expect((await page("/pool")).headers.get("location")).toBe("/pool/");
  expect((await page("/")).status).toBe(404);
  expect((await page("/pool/", { method: "POST" })).status).toBe(405);
  const stats = (await (await page("/pool/stats.json")).json()) as { coin: string; running: boolean };
  expect(stats).toEqual(expect.objectContaining({ coin: "LTC", running: true, blocks_found: 0 }));
  const audit = JSON.stringify((await t.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain("pool-node public page");
});

test(
  "after a block, the page lists it; an address lookup shows its shares and worker; a bad address is refused, escaped",
  async () => {
    miner = await HandMiner.connect(stratumPort, `${a}.rig1`);
    await submitPlan(new Map([[a, miner]]), [a, a, a], D);
    // the overview is read at most every 5 s
    await untilAsync(async () => (await text("/pool/")).includes("immature"));
    const html = await text("/pool/");
    expect(html).toMatch(/<dd data-field="Blocks found">1<\/dd>/);
    expect(html).toMatch(/<dd data-field="Miners \/ workers">1 \/ 1<\/dd>/);

    const mine = await page(`/pool/?address=${a}`);
    expect(mine.status).toBe(200);
    const view = await mine.text();
    expect(view).toContain(`value="${a}"`);
    expect(view).toMatch(/<dd data-field="window">3 \(work /);
    expect(view).toContain(`${a}.rig1`);
    expect(view).toContain('<dd data-field="balance">0.00000000 LTC</dd>');

    const hostile = await page(`/pool/?address=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.status).toBe(400);
    const refused = await hostile.text();
    expect(refused).toContain("Not a LTC address.");
    expect(refused).not.toContain("<script>");
    expect(refused).toContain("&quot;&gt;&lt;script&gt;");
  },
  CHAIN_TEST_MS,
);

test("over TLS with the appliance's certificate when asked; back after a restart; gone when switched off", async () => {
  expect((await post("/api/poolnode/index/tls/1")).body.data).toEqual(
    expect.objectContaining({ tls: true, listening: true }),
  );
  const secure = await fetch(`https://127.0.0.1:${pagePort}/pool/`, { tls: { rejectUnauthorized: false } });
  expect(secure.status).toBe(200);
  expect(await page("/pool/").catch(() => null)).toBeNull();
  const cert = (await t.client.get<Reply<{ builtin: boolean }>>("/api/poolnode/cert")).body.data;
  expect(cert.builtin).toBe(true);

  // the page's cert/upload and cert/reset replace the appliance's one certificate, and the page serves it at once
  const pageUrl = `https://127.0.0.1:${pagePort}/pool/`;
  const pair = makeSelfSigned("pool.farm.example");
  const uploaded = new X509Certificate(pair.cert).fingerprint256;
  const bad = await post("/api/poolnode/cert/upload", { cert: pair.cert, key: makeSelfSigned("x").key });
  expect([bad.status, bad.body.error?.key]).toEqual([400, "lang.cert.err_invalid"]);
  const up = await post<{ builtin: boolean }>("/api/poolnode/cert/upload", pair);
  expect(up.body).toEqual({ status: 0, data: expect.objectContaining({ builtin: false }) });
  await untilAsync(async () => (await servedFingerprint(pageUrl)) === uploaded);
  expect((await t.client.get<{ builtin: boolean }>("/api/cert")).body.builtin).toBe(false);
  const reset = await post<{ builtin: boolean }>("/api/poolnode/cert/reset");
  expect(reset.body.data.builtin).toBe(true);
  await untilAsync(async () => (await servedFingerprint(pageUrl)) !== uploaded);
  expect((await post("/api/poolnode/index/tls/0")).body.data.tls).toBe(false);

  const dataDir = t.dataDir;
  miner?.close();
  miner = null;
  await t.close(true);
  expect(await page("/pool/").catch(() => null)).toBeNull();
  t = await startTestAppliance(dataDir);
  await untilAsync(async () => (await page("/pool/").catch(() => null))?.status === 200);

  expect((await post("/api/poolnode/enable/index/0")).body.data).toEqual(
    expect.objectContaining({ enable: false, listening: false }),
  );
  expect(await page("/pool/").catch(() => null)).toBeNull();
});
