/**
 * Litecoin with MWEB active (mainnet since block 2,265,984; regtest from block 432): every block then
 * carries the HogEx transaction and the extension block, and a block without them is invalid. The
 * chain is taken past activation with litecoin-cli, a peg-in into MWEB waits in the mempool, and the
 * hashing test miner mines through the pool node. The daemon's own answers show that the pool's
 * blocks are on the chain, carry the extension block with the peg-in's output, and that the peg-in
 * is confirmed in one of them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { blockStatus } from "../../../appliance/poolnode/pool/block-tracker.ts";
import { PoolNode } from "../../../appliance/poolnode/pool/pool-node.ts";
import { CHAIN_TEST_MS, cli, cliJson, RegtestPair } from "../../support/poolnode/regtest.ts";
import { until } from "../../support/stratum/port-fixture.ts";
import { TestMiner } from "../../support/stratum/test-miner.ts";

/** litecoind's regtest activates MWEB (BIP9, bit 4, windows of 144 blocks) at this height. */
const FIRST_MWEB_HEIGHT = 432;
/** one hash in 256 is a share, and at regtest's target every share is a block (pool-mining.test.ts) */
const DIFFICULTY = 2 ** -8;

interface MwebBlockView {
  height: number;
  confirmations: number;
  tx: { txid: string; vout: { value: number; scriptPubKey: { hex: string; type: string } }[] }[];
  mweb?: { num_txos: number; num_kernels: number };
}

let chain: RegtestPair;
let pool: PoolNode;
let poolAddress: string;
let peginTxid: string;

beforeAll(async () => {
  chain = await RegtestPair.start();
  const height = Number(await cli(chain.node, "getblockcount"));
  await cli(chain.node, "generatetoaddress", String(FIRST_MWEB_HEIGHT - 1 - height), chain.walletAddress);
  poolAddress = await cli(chain.node, "getnewaddress");
  // a peg-in: coins sent to an MWEB address enter the extension block through the HogEx
  peginTxid = await cli(chain.node, "sendtoaddress", await cli(chain.node, "getnewaddress", "", "mweb"), "1");
  pool = await PoolNode.start({
    coin: "LTC",
    daemon: { url: chain.rpcUrl, credentials: { cookieFile: chain.cookieFile } },
    poolAddress,
    host: "127.0.0.1",
    port: 0,
    difficulty: DIFFICULTY,
    pollMs: 200,
  });
}, CHAIN_TEST_MS);

afterAll(async () => {
  await pool?.stop();
  await chain?.stop();
});

describe("mining with MWEB active", () => {
  test(
    "the pool's blocks carry the HogEx and the extension block, and the daemon accepts them",
    async () => {
      await until(
        () =>
          pool.currentJob?.template.mweb !== undefined &&
          pool.currentJob.template.transactions.some((t) => t.txid === peginTxid),
      );
      const miner = TestMiner.start({
        port: pool.port,
        user: `${poolAddress}.rig1`,
        category: "scrypt",
        maxShares: 400,
      });
      await until(
        () =>
          pool.blocks.blocks.filter((b) => b.verdict === null).length >= 2 ||
          pool.blocks.blocks.some((b) => b.verdict !== null) ||
          miner.report.disconnects > 0,
      );
      const report = await miner.finish();
      await until(() => pool.blocks.blocks.every((b) => blockStatus(b) !== "submitted"));

      expect(report.accepted).toBeGreaterThan(0);
      // the daemon's verdict on each block: null is accepted, anything else its reason
      expect(pool.blocks.blocks.map((b) => b.verdict)).toEqual(pool.blocks.blocks.map(() => null));
      const found = pool.blocks.blocks;
      expect(found.length).toBeGreaterThanOrEqual(2);
      expect(found[0]?.height).toBe(FIRST_MWEB_HEIGHT);

      const poolScript = (await cliJson<{ scriptPubKey: string }>(chain.node, "getaddressinfo", poolAddress))
        .scriptPubKey;
      for (const f of found) {
        const block = await cliJson<MwebBlockView>(chain.node, "getblock", f.hash, "2");
        expect(block.confirmations).toBeGreaterThanOrEqual(1);
        expect(block.tx[0]?.vout[0]?.scriptPubKey.hex).toBe(poolScript);
        // the HogEx is the last transaction; its first output is the MWEB's hog address (OP_8, 32 bytes)
        const hogex = block.tx[block.tx.length - 1];
        expect(block.tx.length).toBeGreaterThanOrEqual(2);
        expect(hogex?.vout[0]?.scriptPubKey.hex).toMatch(/^5820[0-9a-f]{64}$/);
        expect(hogex?.vout[0]?.scriptPubKey.type).toBe("witness_mweb_hogaddr");
        expect(block.mweb).toBeDefined();
      }
      // the peg-in went into the first MWEB block: its output is in the extension block, its coins in the HogEx
      const pegin = await cliJson<{ confirmations: number; blockhash: string }>(
        chain.node,
        "gettransaction",
        peginTxid,
      );
      expect(pegin.confirmations).toBeGreaterThanOrEqual(1);
      expect(pegin.blockhash).toBe(found[0]?.hash as string);
      const first = await cliJson<MwebBlockView>(chain.node, "getblock", found[0]?.hash as string, "2");
      expect(first.mweb?.num_txos).toBeGreaterThanOrEqual(1);
      // the hog address holds what entered MWEB: the 1 LTC sent and the wallet's change, less MWEB's fee
      const peginTx = first.tx.find((t) => t.txid === peginTxid);
      expect(peginTx?.vout.map((o) => o.scriptPubKey.type)).toContain("witness_mweb_pegin");
      expect(first.tx[first.tx.length - 1]?.vout[0]?.value).toBeGreaterThanOrEqual(1);
    },
    CHAIN_TEST_MS,
  );
});
