/**
 * The pool-node page's sub-accounts and withdrawals in Chromium against the real server and litecoind
 * in regtest: a sub-account created from the page (its member an address of the peer node's wallet),
 * its rebate set in place, a block found by two hand miners and matured; the page then shows the
 * rebate line and what the sub-account may withdraw — worked out here from the shares and the coinbase
 * value litecoin-cli reads. A withdrawal requested from the page, a second refused (its hold given
 * back), a third cancelled (it leaves the list, its hold given back), the first approved while the
 * wallet is locked: the page shows why it waits, and once the wallet is unlocked, that it is paid with
 * the transaction the peer's wallet received, for exactly its amount.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { HandMiner } from "../support/poolnode/hand-miner.ts";
import { submitPlan } from "../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, cliJson, RegtestPair } from "../support/poolnode/regtest.ts";
import { untilAsync } from "../support/stratum/port-fixture.ts";
import { launch, login, type Server, shot, startServer } from "./harness.ts";
import { activateFromPage, coins } from "./poolnode-page.ts";

const D = 2 ** -16;
const WALLET_PASSPHRASE = "regtest-only";
const FEE_PPM = 20_000n;
let chain: RegtestPair;
let server: Server;
let browser: Browser;
let page: Page;
const miners = new Map<string, HandMiner>();

beforeAll(async () => {
  chain = await RegtestPair.start();
  server = await startServer();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  for (const m of miners.values()) m.close();
  await browser?.close();
  await server?.stop();
  await chain?.stop();
}, CHAIN_TEST_MS);

test(
  "a sub-account made on the page gets its rebate at maturity; a withdrawal requested, refused, approved and paid",
  async () => {
    await login(page, server.url, "admin", server.password());
    await page.goto(`${server.url}/system/regpool`);
    const { stratumPort } = await activateFromPage(page, chain, D, {
      fee: "2",
      pplns_window: "1000",
      payout_threshold: "0.001",
      // a cycle every 5 s: the miners' balances are paid as soon as they mature, and a withdrawal the
      // locked wallet refused is tried again soon after it is unlocked
      payout_interval_seconds: "5",
    });
    const a = await cli(chain.peer, "getnewaddress");
    const b = await cli(chain.peer, "getnewaddress");
    const destination = await cli(chain.peer, "getnewaddress");

    // create "farm" with A; an address the daemon refuses is named in the error toast
    const subaccounts = page.getByTestId("poolnode-subaccounts");
    await subaccounts.getByRole("button", { name: "New sub-account" }).click();
    const form = subaccounts.getByTestId("subaccount-form");
    await form.locator('input[name="name"]').fill("farm");
    await form.locator('textarea[name="addresses"]').fill(`${a}\nnot-an-address`);
    await form.locator('input[name="rebate"]').fill("10");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByText("The coin daemon does not take this address").first().waitFor();
    await form.locator('textarea[name="addresses"]').fill(a);
    await form.getByRole("button", { name: "Save" }).click();
    const row = subaccounts.locator('tr[data-subaccount="farm"]');
    await row.getByText(a).waitFor();
    // the rebate set in place: 10 % → 40 %
    await row.locator('input[name="rebate"]').fill("40");
    await row.getByRole("button", { name: "Set" }).click();
    await untilAsync(async () => (await subaccountsApi())[0]?.rebate === 0.4);

    // A does 2 of 4 shares, the last a block; 100 blocks mature it
    for (const address of [a, b]) miners.set(address, await HandMiner.connect(stratumPort, `${address}.rig`));
    await submitPlan(miners, [b, a, b, a], D);
    const hash = await cli(chain.node, "getbestblockhash");
    const coinbase = (
      await cliJson<{ tx: { vout: { value: number }[] }[] }>(chain.node, "getblock", hash, "2")
    ).tx[0];
    const reward = BigInt(Math.round((coinbase?.vout[0]?.value ?? 0) * 1e8));
    const charged = reward - (reward * (1_000_000n - FEE_PPM)) / 1_000_000n;
    const rebate = (charged * 400_000n * 2n) / (4n * 1_000_000n);
    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);

    // the page reads the ledger every 10 s
    const credited = page
      .getByTestId("poolnode-rewards")
      .locator("tr", { has: page.locator(`td[title="${hash}"]`) });
    await credited.waitFor({ timeout: 60_000 });
    await credited
      .locator("li[data-subaccount]")
      .getByText(`(rebate to farm) ${coins(rebate)}`)
      .waitFor();
    await row.locator('[data-field="balance"]').getByText(coins(rebate)).waitFor({ timeout: 30_000 });

    // a withdrawal of all but 0.002 LTC, then 0.002 more: the second is refused, its hold given back
    const first = rebate - 200_000n;
    await requestWithdrawal(row, coins(first).replace(" LTC", ""), destination);
    await row.locator('[data-field="balance"]').getByText(coins(200_000n)).waitFor();
    await requestWithdrawal(row, "0.002", destination);
    await row.locator('[data-field="balance"]').getByText(coins(0n)).waitFor();
    const withdrawals = page.getByTestId("poolnode-withdrawals");
    const [second, wanted] = await withdrawalsApi();
    const secondRow = withdrawals.locator(`tr[data-withdrawal="${second?.id}"]`);
    await secondRow.getByRole("button", { name: "Refuse" }).click();
    await secondRow.getByText(/^Refused, amount given back/).waitFor();
    await row.locator('[data-field="balance"]').getByText(coins(200_000n)).waitFor();

    // asked again and cancelled: it leaves the list and its hold is given back
    await requestWithdrawal(row, "0.002", destination);
    await row.locator('[data-field="balance"]').getByText(coins(0n)).waitFor();
    const [third] = await withdrawalsApi();
    const thirdRow = withdrawals.locator(`tr[data-withdrawal="${third?.id}"]`);
    await thirdRow.getByRole("button", { name: "Cancel request" }).click();
    await thirdRow.waitFor({ state: "detached" });
    await row.locator('[data-field="balance"]').getByText(coins(200_000n)).waitFor();

    // approved while the wallet is locked: the payout is refused and the page says why it waits;
    // unlocked, the next cycle pays it, and the page names its transaction
    const wantedRow = withdrawals.locator(`tr[data-withdrawal="${wanted?.id}"]`);
    await wantedRow.getByText("Requested, amount held").waitFor();
    await cli(chain.node, "encryptwallet", WALLET_PASSPHRASE);
    await wantedRow.getByRole("button", { name: "Approve" }).click();
    await wantedRow
      .getByText(
        /^Approved; the wallet refused the last payout, tried again with the next: .*walletpassphrase/,
      )
      .waitFor({ timeout: 30_000 });
    await cli(chain.node, "walletpassphrase", WALLET_PASSPHRASE, "600");
    await wantedRow.getByText(/^Paid \(payout \d+\)$/).waitFor({ timeout: 30_000 });
    await row.locator('[data-field="paid"]').getByText(coins(first)).waitFor({ timeout: 30_000 });
    const txid = (await wantedRow.locator("td[title]").getAttribute("title")) as string;
    // the payout that sent it lists it as a withdrawal's line
    await page
      .getByTestId("poolnode-payouts")
      .locator("tr", { has: page.locator(`td[title="${txid}"]`) })
      .locator(`li[data-address="${destination}"]`)
      .getByText(`${coins(first)} (withdrawal ${wanted?.id})`)
      .waitFor();
    const received = await chain.peerReceives(txid);
    expect(
      received.details
        .filter((d) => d.category === "receive" && d.address === destination)
        .map((d) => Math.round(d.amount * 1e8)),
    ).toEqual([Number(first)]);
    await shot(page, "poolnode-subaccounts");
  },
  2 * CHAIN_TEST_MS,
);

async function requestWithdrawal(row: ReturnType<Page["locator"]>, amount: string, address: string) {
  await row.getByRole("button", { name: "Withdraw" }).click();
  const form = page.getByTestId("withdrawal-form");
  await form.locator('input[name="amount"]').fill(amount);
  await form.locator('input[name="address"]').fill(address);
  await form.getByRole("button", { name: "Request" }).click();
  await form.waitFor({ state: "detached" });
}

/** The API as the page's session reads it, for what the page shows only after its next refresh. */
async function api<T>(path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = localStorage.getItem("pithead.token");
    const r = await fetch(p, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return ((await r.json()) as { data: unknown }).data;
  }, path) as Promise<T>;
}
const subaccountsApi = () => api<{ rebate: number }[]>("/api/poolnode/subaccount/configs");
const withdrawalsApi = () => api<{ id: number }[]>("/api/poolnode/withdrawal/logs");
