/**
 * Vardiff on a real litecoind regtest chain with a hashing miner paced like a device: the pool raises
 * its difficulty from the start value, each share is checked and credited at the difficulty its job
 * was sent with (no share found just before a change is refused as low difficulty), and the work the
 * pool credits equals the work the miner counted from its own set_difficulty messages.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PoolNode } from "../../../appliance/poolnode/pool/pool-node.ts";
import { cli, RegtestPair } from "../../support/poolnode/regtest.ts";
import { until } from "../../support/stratum/port-fixture.ts";
import { TestMiner } from "../../support/stratum/test-miner.ts";

/** One scrypt hash in 16 is a share (and, above regtest's difficulty of about 2^-15, a block). */
const START = 2 ** -12;
const SHARES = 30;

let chain: RegtestPair;
let pool: PoolNode;

beforeAll(async () => {
  chain = await RegtestPair.start();
  pool = await PoolNode.start({
    coin: "LTC",
    daemon: { url: chain.rpcUrl, credentials: { cookieFile: chain.cookieFile } },
    poolAddress: await cli(chain.node, "getnewaddress"),
    host: "127.0.0.1",
    port: 0,
    difficulty: START,
    vardiff: { targetSeconds: 1, min: 2 ** -16, max: 2 ** -4 },
    pollMs: 200,
  });
});

afterAll(async () => {
  await pool?.stop();
  await chain?.stop();
});

test("a fast miner's difficulty rises, and every share is credited at its job's difficulty", async () => {
  await until(() => pool.currentJob !== null);
  const worker = await cli(chain.node, "getnewaddress");
  // far more shares a second than one at the start difficulty
  const miner = TestMiner.start({ port: pool.port, user: worker, category: "scrypt", hashesPerSecond: 200 });
  await until(() => miner.answered >= SHARES);
  const report = await miner.finish();

  expect(report.accepted).toBeGreaterThan(0);
  // the average credited difficulty is above the start: it rose
  expect(report.acceptedWork / report.accepted).toBeGreaterThan(START);
  expect(report.rejected.get(23)).toBeUndefined();
  expect(pool.stats.accepted).toBe(report.accepted);
  expect(pool.stats.work.get(worker) as number).toBeCloseTo(report.acceptedWork, 12);
});
