/**
 * Settings → RMS in Chromium against the real server: a farm client connected to an RMS3 port shows
 * in the tunnel table under the settings with the name it reports and its miner. The setup goes
 * through the API with the page's own session, as the console would make it.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TunnelView } from "../../appliance/domain/rms.ts";
import { portBody } from "../support/appliance.ts";
import { untilAsync } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { freePort, launch, login, type Server, shot, startServer } from "./harness.ts";

setDefaultTimeout(120_000);

const KEY = "e2e tunnel key 77";
const RMS3 = 6;

let server: Server;
let pool: TestPool;
let browser: Browser;
let page: Page;
let miner: RawClient | null = null;
const cleanup: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  server = await startServer();
  pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  miner?.close();
  for (const c of cleanup.splice(0).reverse()) await c();
  await browser?.close();
  await server?.stop();
  await pool?.stop();
});

/** An API call with the page's session, as the console makes it. */
const api = <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> =>
  page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(p as string, {
        method: m as string,
        headers: {
          authorization: `Bearer ${localStorage.getItem("pithead.token") ?? ""}`,
          "content-type": "application/json",
        },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return { status: res.status, body: await res.json() };
    },
    [method, path, body] as const,
  ) as Promise<{ status: number; body: T }>;

test("a connected farm client is listed under Settings → RMS with its name and its miner; the upstream password is saved masked", async () => {
  await login(page, server.url, "admin", server.password());
  const port = freePort();
  expect((await api("POST", "/api/kc/key", { k: KEY })).status).toBe(200);
  expect((await api("POST", "/api/rms/config", { client_name: "farm-east" })).status).toBe(200);
  const created = await api(
    "POST",
    "/api/port/new",
    portBody({ port, name: "main", status: 1, protocol: RMS3, pool_address: pool.address }),
  );
  expect(created.status).toBe(200);
  const client = localTunnelClient(cleanup, port, KEY, RMS3, { name: "rack-9", retryMs: 50 });
  // a miner logged in and idle: a hashing one at full speed would trip the appliance's flood limit
  miner = await RawClient.connect(client.port);
  miner.request(1, "mining.subscribe", ["rig/1.0"]);
  miner.request(2, "mining.authorize", ["wal.e2e", "x"]);
  await untilAsync(
    async () => (await api<{ items: TunnelView[] }>("GET", "/api/rms/tunnels")).body.items[0]?.streams === 1,
  );

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await page.locator('[data-testid="settings"] button[data-section="rms"]').click();
  const table = page.getByTestId("rms-tunnels");
  const row = table.locator("tbody tr").filter({ hasText: "rack-9" });
  await row.waitFor();
  const cells = await row.locator("td").allInnerTexts();
  expect(cells.slice(0, 4)).toEqual(["rack-9", "127.0.0.1", `${port} RMS3`, "1"]);
  await shot(page, "rms-tunnels");

  // the farm side's own password, under the same Save: it comes back masked, never in clear
  const upstream = page.getByLabel("Password for the RMS servers this appliance's pools reach");
  await upstream.fill("upstream e2e pass");
  await page.getByTestId("settings").getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved").first().waitFor();
  expect((await api("GET", "/api/rms/upstream")).body).toEqual({ password: "********" });
  expect(await upstream.inputValue()).toBe("********");
});

test("the batch window is saved from Settings → RMS; a value out of its range is refused with the rule", async () => {
  await login(page, server.url, "admin", server.password());
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  // while the stored settings are on their way, the form takes no typing they would overwrite
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const config = "**/api/rms/config";
  await page.route(config, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue();
  });
  await page.locator('[data-testid="settings"] button[data-section="rms"]').click();
  await page.getByLabel("Batch window (ms)").waitFor();
  expect(await page.getByLabel("Batch window (ms)").isDisabled()).toBe(true);
  expect(await page.getByLabel("Client name").isDisabled()).toBe(true);
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/rms/config"));
  release();
  await loaded;
  await page.unroute(config);
  const batch = page.getByLabel("Batch window (ms)");
  const save = page.getByTestId("settings").getByRole("button", { name: "Save", exact: true });
  await untilAsync(() => save.isEnabled());
  await batch.fill("1500");
  await save.click();
  await page.getByText("The batch window is a whole number of milliseconds from 0 to 1000").first().waitFor();
  expect((await api<{ batch_ms: number }>("GET", "/api/rms/config")).body.batch_ms).toBe(0);
  await batch.fill("200");
  await save.click();
  await page.getByText("Saved").first().waitFor();
  expect((await api<{ batch_ms: number }>("GET", "/api/rms/config")).body.batch_ms).toBe(200);
});
