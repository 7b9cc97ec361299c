/**
 * The pool-node page's ledger in Chromium against the real server and litecoind in regtest: the
 * project's payout fields saved from the form, two hand miners' shares (addresses of the peer node's
 * wallet) ending in a block, matured by 100 blocks; the page then shows the block's PPLNS credits, the
 * payout with its transaction — which the peer's wallet holds — each miner's balance and what it was
 * paid, and the fee income. The amounts the page must show are worked out here from the shares the
 * miners submitted and the coinbase value litecoin-cli reads.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { HandMiner } from "../support/poolnode/hand-miner.ts";
import { pplnsTruth, submitPlan } from "../support/poolnode/pplns-plan.ts";
import { cli, cliJson, RegtestPair } from "../support/poolnode/regtest.ts";
import { launch, login, type Server, shot, startServer } from "./harness.ts";
import { activateFromPage, coins } from "./poolnode-page.ts";

const D = 2 ** -16;
let chain: RegtestPair;
let server: Server;
let browser: Browser;
let page: Page;
const miners = new Map<string, HandMiner>();

beforeAll(async () => {
  chain = await RegtestPair.start();
  server = await startServer();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 1200 } });
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  for (const m of miners.values()) m.close();
  await browser?.close();
  await server?.stop();
  await chain?.stop();
});

test("credits, the payout and its transaction, balances and the fee income on the pool-node page", async () => {
  await login(page, server.url, "admin", server.password());
  await page.goto(`${server.url}/system/regpool`);
  const form = page.getByTestId("poolnode-project");
  const { stratumPort, poolAddress } = await activateFromPage(page, chain, D, {
    fee: "2",
    pplns_window: "1000",
    payout_threshold: "0.001",
    payout_interval_seconds: "1",
  });
  await page.getByTestId("poolnode-rewards").getByText("No block credited yet").waitFor();

  const a = await cli(chain.peer, "getnewaddress");
  const b = await cli(chain.peer, "getnewaddress");
  for (const address of [a, b]) miners.set(address, await HandMiner.connect(stratumPort, `${address}.rig`));
  const plan = [a, b, a];
  await submitPlan(miners, plan, D);
  const hash = await cli(chain.node, "getbestblockhash");
  const coinbase = (await cliJson<{ tx: { vout: { value: number }[] }[] }>(chain.node, "getblock", hash, "2"))
    .tx[0];
  const truth = pplnsTruth(
    plan,
    1000 / D,
    BigInt(Math.round((coinbase?.vout[0]?.value ?? 0) * 1e8)),
    20_000n,
  );
  await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);

  // the page reads the ledger every 10 s
  const credited = page
    .getByTestId("poolnode-rewards")
    .locator("tr", { has: page.locator(`td[title="${hash}"]`) });
  await credited.waitFor({ timeout: 60_000 });
  for (const address of [a, b])
    await credited
      .locator(`li[data-address="${address}"]`)
      .getByText(coins(truth.credits.get(address) as bigint))
      .waitFor();
  await credited.locator(`li[data-address="${poolAddress}"]`).getByText(coins(truth.fee)).waitFor();
  await page
    .getByTestId("poolnode-profit")
    .getByText(`Pool fee income: ${coins(truth.fee)}`)
    .waitFor();

  const payout = page.getByTestId("poolnode-payouts").locator("tr[data-payout]");
  await payout.getByText(/^(Sent|Confirmed)$/).waitFor({ timeout: 60_000 });
  for (const address of [a, b])
    await payout
      .locator(`li[data-address="${address}"]`)
      .getByText(coins(truth.credits.get(address) as bigint))
      .waitFor();
  // the transaction the page names is the one the peer's wallet received, with each miner's credit
  const txid = (await payout.locator("td[title]").getAttribute("title")) as string;
  const received = await chain.peerReceives(txid);
  expect(
    received.details
      .filter((d) => d.category === "receive")
      .map((d) => [d.address, Math.round(d.amount * 1e8)])
      .sort(),
  ).toEqual([a, b].map((x) => [x, Number(truth.credits.get(x))]).sort());

  const lookup = page.getByTestId("poolnode-address");
  await lookup.locator('input[name="address"]').fill(a);
  await lookup.getByRole("button", { name: "Look up" }).click();
  await lookup
    .getByText(
      `Balance 0.00000000 LTC, paid ${coins(truth.credits.get(a) as bigint)}; 2 shares in the current window`,
    )
    .waitFor();
  await lookup.getByText(`${a}.rig (2)`).waitFor();
  await shot(page, "poolnode-ledger");

  // the saved payout fields come back into the form
  await page.reload();
  await page.waitForFunction(
    () => document.querySelector<HTMLInputElement>('input[name="payout_threshold"]')?.value === "0.001",
  );
  expect(await form.locator('input[name="payout_interval_seconds"]').inputValue()).toBe("1");
  expect(await form.locator('input[name="pplns_window"]').inputValue()).toBe("1000");
});
