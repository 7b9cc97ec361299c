/**
 * The pool-node page's project set up as an operator does it: the form filled, saved, activated, and
 * the page showing the pool running. For the pool-node e2e tests against litecoind in regtest.
 */
import type { Page } from "playwright-core";
import { cli, type RegtestPair } from "../support/poolnode/regtest.ts";
import { expectToast, freePort } from "./harness.ts";

export interface PageProject {
  stratumPort: number;
  poolAddress: string;
}

/** Fills, saves and activates the project; `fields` override the form's values (fee in %, as typed). */
export async function activateFromPage(
  page: Page,
  chain: RegtestPair,
  difficulty: number,
  fields: Record<string, string>,
): Promise<PageProject> {
  const form = page.getByTestId("poolnode-project");
  const stratumPort = freePort();
  const poolAddress = await cli(chain.node, "getnewaddress");
  const all: Record<string, string> = {
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: poolAddress,
    difficulty: String(difficulty),
    vardiff_seconds: "0",
    stratum_port: String(stratumPort),
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) await form.locator(`input[name="${name}"]`).fill(value);
  await form.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Pool-node project saved");
  await form.getByRole("button", { name: "Activate" }).click();
  await page.getByTestId("regpool-state").getByText("The pool node is running").waitFor();
  return { stratumPort, poolAddress };
}

/** Base units as the operator reads them, worked out here with integers. */
export const coins = (units: bigint) =>
  `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")} LTC`;
