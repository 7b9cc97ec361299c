/**
 * The pool node's daemon link against a real litecoind in regtest: cookie and user/password
 * credentials, getblocktemplate (and litecoind's demand for the mweb rule), submitblock's verdict,
 * getblockchaininfo, validateaddress/getaddressinfo, getblock, and the template poller seeing a new
 * tip. Expected values come from litecoin-cli, not from the client under test.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BlockTemplate } from "../../../appliance/poolnode/daemon/calls.ts";
import { DaemonCalls } from "../../../appliance/poolnode/daemon/calls.ts";
import { DaemonRpc, DaemonRpcError } from "../../../appliance/poolnode/daemon/rpc-client.ts";
import { TemplatePoller } from "../../../appliance/poolnode/daemon/template-poller.ts";
import { tempDir } from "../../support/appliance.ts";
import { cli, cliJson, RegtestPair, RPC_PASSWORD, RPC_USER } from "../../support/poolnode/regtest.ts";
import { untilAsync } from "../../support/stratum/port-fixture.ts";

const LTC_RULES = ["segwit", "mweb"];

let chain: RegtestPair;
let daemon: DaemonCalls;

beforeAll(async () => {
  chain = await RegtestPair.start();
  daemon = new DaemonCalls(
    new DaemonRpc({ url: chain.rpcUrl, credentials: { cookieFile: chain.cookieFile } }),
  );
});

afterAll(async () => {
  await chain?.stop();
});

describe("credentials", () => {
  test("the cookie file and rpcauth user/password are both accepted", async () => {
    const info = await daemon.getBlockchainInfo();
    expect(info.chain).toBe("regtest");
    expect(info.blocks).toBe(Number(await cli(chain.node, "getblockcount")));
    expect(info.bestblockhash).toBe(await cli(chain.node, "getbestblockhash"));

    const withPassword = new DaemonCalls(
      new DaemonRpc({ url: chain.rpcUrl, credentials: { user: RPC_USER, password: RPC_PASSWORD } }),
    );
    expect((await withPassword.getBlockchainInfo()).bestblockhash).toBe(info.bestblockhash);
  });

  test("a cookie the daemon replaced is read again after the 401", async () => {
    const file = join(tempDir(), ".cookie");
    writeFileSync(file, "__cookie__:stale");
    const client = new DaemonCalls(new DaemonRpc({ url: chain.rpcUrl, credentials: { cookieFile: file } }));
    expect(await client.getBlockCount().catch((x: unknown) => x)).toBeInstanceOf(DaemonRpcError);
    // as a daemon restart does: the file now holds the current cookie
    writeFileSync(file, readFileSync(chain.cookieFile));
    expect(await client.getBlockCount()).toBe(Number(await cli(chain.node, "getblockcount")));
  });

  test("a wrong password is a transport error naming the 401", async () => {
    const wrong = new DaemonCalls(
      new DaemonRpc({ url: chain.rpcUrl, credentials: { user: RPC_USER, password: "wrong" } }),
    );
    const e = await wrong.getBlockCount().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DaemonRpcError);
    expect((e as DaemonRpcError).code).toBeNull();
    expect((e as DaemonRpcError).message).toContain("401");
  });
});

describe("templates", () => {
  test("getblocktemplate builds on the daemon's tip and carries a mempool transaction", async () => {
    const txid = await cli(chain.node, "sendtoaddress", await cli(chain.node, "getnewaddress"), "1");
    let t: BlockTemplate | null = null;
    // the daemon reuses a template for a few seconds while only the mempool changed
    await untilAsync(async () => {
      t = await daemon.getBlockTemplate(LTC_RULES);
      return t.transactions.some((x) => x.txid === txid);
    }, 500);
    const template = t as unknown as BlockTemplate;
    expect(template.previousblockhash).toBe(await cli(chain.node, "getbestblockhash"));
    expect(template.height).toBe(Number(await cli(chain.node, "getblockcount")) + 1);
    const raw = await cli(chain.node, "getrawtransaction", txid);
    expect(template.transactions.find((x) => x.txid === txid)?.data).toBe(raw);
    expect(template.default_witness_commitment).toMatch(/^6a24aa21a9ed[0-9a-f]{64}$/);
  });

  test("litecoind refuses a template without the mweb rule, and the daemon's code comes through", async () => {
    const e = await daemon.getBlockTemplate(["segwit"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DaemonRpcError);
    expect((e as DaemonRpcError).code).toBe(-8);
    expect((e as DaemonRpcError).message).toContain("mweb");
  });

  test("the poller reports a new tip as clean work", async () => {
    const seen: { template: BlockTemplate; clean: boolean }[] = [];
    const poller = new TemplatePoller(
      daemon,
      { onTemplate: (template, clean) => seen.push({ template, clean }), onError: () => {} },
      { rules: LTC_RULES, pollMs: 100 },
    );
    poller.start();
    try {
      await untilAsync(async () => seen.length > 0);
      const first = seen[0] as { template: BlockTemplate; clean: boolean };
      expect(first.clean).toBe(true);
      const [mined] = await cliJson<string[]>(chain.node, "generatetoaddress", "1", chain.walletAddress);
      await untilAsync(async () => seen.some((s) => s.template.previousblockhash === mined));
      const next = seen.find((s) => s.template.previousblockhash === mined);
      expect(next?.clean).toBe(true);
      expect(poller.template?.previousblockhash).toBe(mined as string);
    } finally {
      poller.stop();
    }
  });
});

describe("blocks and addresses", () => {
  test("submitblock returns the daemon's reason for a block it already has", async () => {
    const best = await cli(chain.node, "getbestblockhash");
    const raw = await cli(chain.node, "getblock", best, "0");
    expect(await daemon.submitBlock(raw)).toBe("duplicate");
  });

  test("getblock gives height and confirmations", async () => {
    const best = await cli(chain.node, "getbestblockhash");
    const block = await daemon.getBlock(best);
    expect(block.height).toBe(Number(await cli(chain.node, "getblockcount")));
    expect(block.confirmations).toBe(1);
  });

  test("validateaddress and getaddressinfo agree with the wallet", async () => {
    const info = await cliJson<{ scriptPubKey: string }>(chain.node, "getaddressinfo", chain.walletAddress);
    const valid = await daemon.validateAddress(chain.walletAddress);
    expect(valid.isvalid).toBe(true);
    expect(valid.scriptPubKey).toBe(info.scriptPubKey);
    expect((await daemon.getAddressInfo(chain.walletAddress)).ismine).toBe(true);
    expect((await daemon.validateAddress("not-an-address")).isvalid).toBe(false);
  });
});
