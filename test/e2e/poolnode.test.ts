/**
 * The pool-node page in Chromium against the real server and a real litecoind in regtest: "not
 * activated" until the project is applied and activated (through the API, as the console has no
 * activation form yet), then the running state with the stratum port and the daemon's height.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { Client } from "../support/appliance.ts";
import { cli, RegtestPair } from "../support/poolnode/regtest.ts";
import { freePort, launch, login, type Server, shot, startServer } from "./harness.ts";

let chain: RegtestPair;
let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  chain = await RegtestPair.start();
  server = await startServer();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await chain?.stop();
});

test("the page shows not activated, then the running node with its port and the daemon's height", async () => {
  await login(page, server.url, "admin", server.password());
  await page.goto(`${server.url}/system/regpool`);
  await page
    .getByTestId("regpool-state")
    .getByText("The node is not activated, please activate first")
    .waitFor();

  const api = new Client(server.url);
  expect((await api.login("admin", server.password())).status).toBe(200);
  const stratumPort = freePort();
  const applied = await api.post("/api/poolnode/project/apply", {
    coin: "LTC",
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: await cli(chain.node, "getnewaddress"),
    difficulty: 2 ** -8,
    stratum_port: stratumPort,
  });
  expect(applied.status).toBe(200);
  expect((await api.post("/api/poolnode/project/active")).status).toBe(200);

  await page.reload();
  await page
    .getByTestId("regpool-state")
    .getByText(`The pool node is running: LTC miners connect to stratum port ${stratumPort}.`)
    .waitFor();
  const height = Number(await cli(chain.node, "getblockcount"));
  await page
    .getByTestId("regpool-sync")
    .getByText(`Daemon chain regtest, height ${height}; miners work on block ${height + 1}.`)
    .waitFor();
  await shot(page, "poolnode-running");
});
