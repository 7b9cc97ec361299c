/**
 * The pool-node page in Chromium against the real server and a real litecoind in regtest: "not
 * activated" until the project is saved and activated in the page's form, then the running state with
 * the stratum port and the daemon's height, a block a hashing miner finds through it listed, a second
 * stratum port added, edited and removed in the Ports section (a port the node already uses refused
 * with the reason; pushed to a second appliance under this node's group control, which refuses it —
 * on the same host the number is taken — and the page says so), an empty sub-account deleted, the stored project back in the form, and deactivation.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { Client } from "../support/appliance.ts";
import { HandMiner } from "../support/poolnode/hand-miner.ts";
import { cli, RegtestPair } from "../support/poolnode/regtest.ts";
import { untilAsync } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { servedFingerprint } from "../support/tls-peer.ts";
import { confirm, expectToast, freePort, launch, login, type Server, shot, startServer } from "./harness.ts";

let chain: RegtestPair;
let server: Server;
/** a second appliance this node controls in group control */
let member: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  chain = await RegtestPair.start();
  [server, member] = await Promise.all([startServer(), startServer()]);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await member?.stop();
  await chain?.stop();
});

test("the page saves the project, activates the node, shows it running with its port and height, and deactivates it", async () => {
  await login(page, server.url, "admin", server.password());
  await page.goto(`${server.url}/system/regpool`);
  const state = page.getByTestId("regpool-state");
  await state.getByText("The node is not activated, please activate first").waitFor();

  const form = page.getByTestId("poolnode-project");
  const stratumPort = freePort();
  await form.locator('input[name="rpc_url"]').fill(chain.rpcUrl);
  await form.locator('input[name="rpc_cookie_file"]').fill(chain.cookieFile);
  const poolAddress = await cli(chain.node, "getnewaddress");
  await form.locator('input[name="pool_address"]').fill(poolAddress);
  await form.locator('input[name="difficulty"]').fill(String(2 ** -8));
  await form.locator('input[name="stratum_port"]').fill(String(stratumPort));
  await form.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Pool-node project saved");
  await state.getByText("The node is not activated, please activate first").waitFor();

  await form.getByRole("button", { name: "Activate" }).click();
  await state
    .getByText(`The pool node is running: LTC miners connect to stratum port ${stratumPort}.`)
    .waitFor();
  const height = Number(await cli(chain.node, "getblockcount"));
  // the first read may come before the pool's first template; the page reads sync/info every 10 s
  await page
    .getByTestId("regpool-sync")
    .getByText(`Daemon chain regtest, height ${height}; miners work on block ${height + 1}.`)
    .waitFor({ timeout: 60_000 });

  // a hashing miner finds a block through the node: the page lists it, by the daemon's hash
  const miner = TestMiner.start({ port: stratumPort, user: poolAddress, category: "scrypt" });
  await untilAsync(async () => Number(await cli(chain.node, "getblockcount")) > height);
  await miner.finish();
  const first = await cli(chain.node, "getblockhash", String(height + 1));
  const row = page
    .getByTestId("poolnode-blocks")
    .locator("tr", { has: page.locator(`td[title="${first}"]`) });
  // the page reads sync/info every 10 s
  await row.getByText("Immature: ").waitFor({ timeout: 60_000 });
  await row.getByText(String(height + 1), { exact: true }).waitFor();
  await shot(page, "poolnode-running");

  // Ports: the project's port listening; a second port of the same pool added, edited, removed
  const ports = page.getByTestId("poolnode-ports");
  await ports
    .locator(`tr[data-port="${stratumPort}"]`)
    .getByText(/^Listening, \d+ connected$/)
    .waitFor();
  await ports.getByRole("button", { name: "Add pool-node port" }).click();
  const dialog = page.getByTestId("add-node-port");
  await dialog.locator('input[name="port"]').fill(String(stratumPort));
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog
    .getByRole("alert")
    .getByText(
      "Port creation failed: The appliance already uses this port: a proxy port, a pool-node port or the web console (pool-node port)",
    )
    .waitFor();
  // the member, on this same host, cannot listen on the same number: the page names it and why
  await controlMember();
  const extraPort = freePort();
  await dialog.locator('input[name="port"]').fill(String(extraPort));
  await dialog.locator('input[name="proxy_addr"]').fill("127.0.0.1");
  await dialog.locator('input[name="name"]').fill("hall 2");
  await dialog.locator('input[name="difficulty"]').fill(String(2 ** -10));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToast(page, `Port ${extraPort} created`);
  await expectToast(page, "Port creation failed: rack 1");
  const extraRow = ports.locator(`tr[data-port="${extraPort}"]`);
  await extraRow.getByText("hall 2").waitFor();
  await extraRow.getByText("Listening, 0 connected").waitFor();
  // a miner on it is welcomed at the port's difficulty
  const rig = await HandMiner.connect(extraPort, `${poolAddress}.hall2`);
  expect(rig.difficulties()).toEqual([2 ** -10]);
  await extraRow.getByRole("button", { name: "Edit" }).click();
  const portForm = ports.getByTestId("pool-port-form");
  await portForm.locator('input[name="difficulty"]').fill(String(2 ** -9));
  await portForm.getByRole("button", { name: "Save" }).click();
  await extraRow
    .locator('[data-field="difficulty"]')
    .getByText(String(2 ** -9))
    .waitFor();
  await extraRow.getByText("Listening, 1 connected").waitFor({ timeout: 20_000 });
  await shot(page, "poolnode-ports");
  await extraRow.getByRole("button", { name: "Delete" }).click();
  await confirm(page);
  await expectToast(page, `Port ${extraPort} removed`);
  await extraRow.waitFor({ state: "detached" });
  await untilAsync(async () => rig.closed);

  // a sub-account with nothing to withdraw is deleted from the page
  const subaccounts = page.getByTestId("poolnode-subaccounts");
  await subaccounts.getByRole("button", { name: "New sub-account" }).click();
  const subForm = subaccounts.getByTestId("subaccount-form");
  await subForm.locator('input[name="name"]').fill("spare");
  await subForm.locator('textarea[name="addresses"]').fill(await cli(chain.peer, "getnewaddress"));
  await subForm.getByRole("button", { name: "Save" }).click();
  const spare = subaccounts.locator('tr[data-subaccount="spare"]');
  await spare.getByRole("button", { name: "Delete" }).click();
  await confirm(page);
  await spare.waitFor({ state: "detached" });

  // the public page: a port out of range is refused with its message; saved and switched on, the
  // card links to it and miners get it there; switched off, it is gone
  const publicPage = page.getByTestId("poolnode-page");
  await publicPage.getByText("Off", { exact: true }).waitFor();
  // the card reloads after the refusal; that reload is held until the operator has typed the next
  // values, which must survive it
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const cardState = "**/api/poolnode/index/port";
  await page.route(cardState, async (route) => {
    if (route.request().method() === "GET") await held;
    await route.continue();
  });
  await publicPage.locator('input[name="port"]').fill("70000");
  await publicPage.getByRole("button", { name: "Save" }).click();
  await publicPage
    .getByRole("alert")
    .getByText(/^Public page check failed: port 1 to 65535/)
    .waitFor();
  const pagePort = freePort();
  await publicPage.locator('input[name="port"]').fill(String(pagePort));
  await publicPage.locator('input[name="route"]').fill("pool/");
  await publicPage.locator('input[name="title"]').fill("Hall pool");
  const reloaded = page.waitForResponse((r) => r.url().endsWith("/api/poolnode/index/port"));
  release();
  await reloaded;
  await page.unroute(cardState);
  await afterRender(page);
  expect(await publicPage.locator('input[name="port"]').inputValue()).toBe(String(pagePort));
  expect(await publicPage.locator('input[name="title"]').inputValue()).toBe("Hall pool");
  await publicPage.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Public page saved");
  await publicPage.getByRole("button", { name: "Switch on" }).click();
  const pageUrl = `http://127.0.0.1:${pagePort}/pool/`;
  await publicPage.getByRole("link", { name: pageUrl }).waitFor();
  const served = await fetch(pageUrl);
  expect(served.status).toBe(200);
  expect(await served.text()).toContain("<h1>Hall pool</h1>");
  await publicPage.getByRole("button", { name: "Switch off" }).click();
  await publicPage.getByText("Off", { exact: true }).waitFor();
  expect(await fetch(pageUrl).catch(() => null)).toBeNull();

  // the stored project comes back into the form (once its GET has answered)
  await page.reload();
  await page.waitForFunction(
    (v) => document.querySelector<HTMLInputElement>('input[name="rpc_cookie_file"]')?.value === v,
    chain.cookieFile,
  );
  await form.getByRole("button", { name: "Deactivate" }).click();
  await state.getByText("The node is not activated, please activate first").waitFor();
});

/** Registers `member` as a remote of the node, by API, with its token and its pinned certificate. */
async function controlMember(): Promise<void> {
  const memberApi = new Client(member.url);
  expect((await memberApi.login("admin", member.password())).status).toBe(200);
  const token = (await memberApi.get<{ token: string }>("/api/remote/token")).body.token;
  const nodeApi = new Client(server.url);
  expect((await nodeApi.login("admin", server.password())).status).toBe(200);
  const registered = await nodeApi.post("/api/remote/new", {
    address: member.httpsUrl,
    token,
    remark: "rack 1",
    fingerprint: await servedFingerprint(member.httpsUrl),
  });
  expect(registered.status).toBe(200);
}

/**
 * Resolves once the page has rendered what it has received and run its effects: preact runs effects
 * after the next frame, so two frames and a task later they have run.
 */
async function afterRender(page: Page): Promise<void> {
  for (let i = 0; i < 2; i++)
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}
