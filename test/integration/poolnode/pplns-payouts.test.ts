/**
 * Accounting on the real appliance and a real litecoind in regtest: two hand miners (addresses of the
 * peer node's own wallet) submit shares in a known order through the project's stratum port, the last
 * one a block. The block waits immature, credits nobody, and matures after 100 blocks; its PPLNS
 * credits — a window of 4.5 shares, so the oldest share in it counts half — match what the test works
 * out from the order it submitted, and add up to the coinbase value litecoin-cli reads from the chain.
 * The payout cycle then pays both balances in one sendmany — after a first one the locked wallet
 * refused, undone at once — and the peer's wallet shows each address receiving exactly its credit,
 * once. A second block, which the chain then drops, credits nobody.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { pplnsTruth, submitPlan } from "../../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, cliJson, RegtestPair } from "../../support/poolnode/regtest.ts";
import { untilAsync } from "../../support/stratum/port-fixture.ts";

const D = 2 ** -16;
const WALLET_PASSPHRASE = "regtest-only";
const WINDOW_SHARES = 4.5;
const FEE_PPM = 10_000n;
const stratumPort = freePort();
let chain: RegtestPair;
let t: TestAppliance;
let poolAddress: string;
let a: string;
let b: string;
const miners = new Map<string, HandMiner>();

interface Reply<T> {
  status: number;
  data: T;
}
interface Reward {
  hash: string;
  height: number;
  reward: number;
  credits: { address: string; amount: number; kind: string }[];
}
interface PayoutView {
  id: number;
  state: string;
  error: string;
  txid: string | null;
  total: number;
  items: { address: string; amount: number; withdrawal_id: number | null }[];
}
interface AddressView {
  balance: number;
  paid: number;
  window: { shares: number; work: number };
  workers: { worker: string; shares: number }[];
}

const get = async <T>(path: string): Promise<T> => (await t.client.get<Reply<T>>(path)).body.data;

beforeAll(async () => {
  chain = await RegtestPair.start();
  poolAddress = await cli(chain.node, "getnewaddress");
  a = await cli(chain.peer, "getnewaddress");
  b = await cli(chain.peer, "getnewaddress");
  t = await startTestAppliance();
  const saved = await t.client.post("/api/poolnode/project/apply", {
    coin: "LTC",
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: poolAddress,
    fee: Number(FEE_PPM) / 1e6,
    pplns_window: WINDOW_SHARES * D,
    difficulty: D,
    vardiff_seconds: 0,
    payout_threshold: 0.001,
    payout_interval_seconds: 1,
    stratum_port: stratumPort,
  });
  expect(saved.status).toBe(200);
  expect((await t.client.post("/api/poolnode/project/active")).status).toBe(200);
  await untilAsync(
    async () =>
      (await get<{ templates: { active: number } }>("/api/poolnode/project/info")).templates.active === 1,
  );
  for (const address of [a, b]) miners.set(address, await HandMiner.connect(stratumPort, `${address}.rig`));
});

afterAll(async () => {
  for (const m of miners.values()) m.close();
  await t?.close();
  await chain?.stop();
});

// A's second share is the oldest in the window and counts half; A's first is outside it
const PLAN = () => [a, a, b, b, b, a];

test("a found block is recorded with its reward and credits nobody while immature", async () => {
  const plan = PLAN();
  await submitPlan(miners, plan, D);
  type Sync = { blocks: { hash: string; status: string; worker: string }[] };
  await untilAsync(async () => (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.status === "immature");
  const found = (await get<Sync>("/api/poolnode/sync/info")).blocks[0];
  expect(found?.worker).toBe(`${a}.rig`);
  expect(await cli(chain.node, "getbestblockhash")).toBe(found?.hash as string);
  expect(await get<Reward[]>("/api/poolnode/rewards")).toEqual([]);
  const info = await get<AddressView>(`/api/poolnode/address/info?address=${a}`);
  expect(info).toEqual(
    expect.objectContaining({ balance: 0, paid: 0, window: { shares: 2, work: 1.5 * D } }),
  );
  expect(info.workers).toEqual([expect.objectContaining({ worker: `${a}.rig`, shares: 3 })]);
});

test(
  "matured, it is credited by PPLNS exactly as the submitted shares say, and paid to the peer's wallet once",
  async () => {
    const hash = (await get<{ blocks: { hash: string }[] }>("/api/poolnode/sync/info")).blocks[0]
      ?.hash as string;
    // a locked wallet refuses the first payout: undone at once with the daemon's reason
    await cli(chain.node, "encryptwallet", WALLET_PASSPHRASE);
    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);
    await untilAsync(async () => (await get<Reward[]>("/api/poolnode/rewards")).length === 1);

    // the truth: the coinbase value on the chain, split by the order the miners submitted in
    const coinbase = (
      await cliJson<{ tx: { vout: { value: number }[] }[] }>(chain.node, "getblock", hash, "2")
    ).tx[0];
    const reward = BigInt(Math.round((coinbase?.vout[0]?.value ?? 0) * 1e8));
    const truth = pplnsTruth(PLAN(), WINDOW_SHARES, reward, FEE_PPM);
    const [rewarded] = await get<Reward[]>("/api/poolnode/rewards");
    expect(rewarded?.hash).toBe(hash);
    expect(BigInt(rewarded?.reward ?? 0)).toBe(reward);
    expect(new Set(rewarded?.credits.map((c) => `${c.kind} ${c.address} ${c.amount}`))).toEqual(
      new Set([
        `pplns ${a} ${truth.credits.get(a)}`,
        `pplns ${b} ${truth.credits.get(b)}`,
        `fee ${poolAddress} ${truth.fee}`,
      ]),
    );
    expect((await get<{ total: number }>("/api/poolnode/profit")).total).toBe(Number(truth.fee));

    await untilAsync(async () => (await get<PayoutView[]>("/api/poolnode/payouts")).length > 0);
    const [refused] = await get<PayoutView[]>("/api/poolnode/payouts");
    expect(refused).toEqual(expect.objectContaining({ state: "failed", txid: null }));
    expect(refused?.error).toContain("walletpassphrase");
    for (const address of [a, b])
      expect((await get<AddressView>(`/api/poolnode/address/info?address=${address}`)).paid).toBe(0);

    // unlocked, the next cycle (every second here) pays both in one transaction
    await cli(chain.node, "walletpassphrase", WALLET_PASSPHRASE, "600");
    await untilAsync(async () => (await get<PayoutView[]>("/api/poolnode/payouts"))[0]?.state === "sent");
    const [payout] = await get<PayoutView[]>("/api/poolnode/payouts");
    const txid = payout?.txid as string;
    expect(payout?.items).toEqual(
      [
        { address: a, amount: Number(truth.credits.get(a)), withdrawal_id: null },
        { address: b, amount: Number(truth.credits.get(b)), withdrawal_id: null },
      ].sort((x, y) => x.address.localeCompare(y.address)),
    );
    for (const address of [a, b]) {
      const view = await get<AddressView>(`/api/poolnode/address/info?address=${address}`);
      expect(view).toEqual(expect.objectContaining({ balance: 0, paid: Number(truth.credits.get(address)) }));
    }

    // the peer's wallet sees it arrive, and once mined, each address holds exactly its credit
    await chain.peerReceives(txid);
    await cli(chain.node, "generatetoaddress", "1", chain.walletAddress);
    const height = await cli(chain.node, "getblockcount");
    await untilAsync(async () => (await cli(chain.peer, "getblockcount")) === height);
    for (const address of [a, b]) {
      const received = Math.round(Number(await cli(chain.peer, "getreceivedbyaddress", address, "1")) * 1e8);
      expect(BigInt(received)).toBe(truth.credits.get(address) as bigint);
      const unspent = await cliJson<{ txid: string; amount: number }[]>(
        chain.peer,
        "listunspent",
        "1",
        "9999999",
        JSON.stringify([address]),
      );
      expect(unspent.map((u) => [u.txid, Math.round(u.amount * 1e8)])).toEqual([
        [txid, Number(truth.credits.get(address))],
      ]);
    }
    // later cycles pay nobody again; the payout is confirmed
    await untilAsync(
      async () => (await get<PayoutView[]>("/api/poolnode/payouts"))[0]?.state === "confirmed",
    );
    await Bun.sleep(2500);
    expect(await get<PayoutView[]>("/api/poolnode/payouts")).toHaveLength(2);
  },
  CHAIN_TEST_MS,
);

test(
  "a block the chain orphans credits nobody, also once it is 100 blocks behind",
  async () => {
    const tip = await cli(chain.node, "getbestblockhash");
    for (const m of miners.values()) await m.jobOn(tip);
    await submitPlan(miners, [b, b, a], D);
    type Sync = { blocks: { hash: string; status: string }[] };
    await untilAsync(
      async () => (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.status === "immature",
    );
    const orphan = (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.hash as string;
    await cli(chain.node, "invalidateblock", orphan);
    // the chain goes on without it, past maturity
    await cli(chain.node, "generatetoaddress", "101", chain.walletAddress);
    await untilAsync(
      async () => (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.status === "orphaned",
    );
    expect((await cliJson<{ confirmations: number }>(chain.node, "getblock", orphan)).confirmations).toBe(-1);
    await Bun.sleep(2500);
    expect((await get<Reward[]>("/api/poolnode/rewards")).map((r) => r.hash)).not.toContain(orphan);
    expect(await get<PayoutView[]>("/api/poolnode/payouts")).toHaveLength(2);
    for (const address of [a, b])
      expect((await get<AddressView>(`/api/poolnode/address/info?address=${address}`)).balance).toBe(0);
  },
  CHAIN_TEST_MS,
);

test("the ledger's calls: zod on their queries, status 4 once the node is not activated", async () => {
  expect((await t.client.get("/api/poolnode/address/info")).status).toBe(400);
  expect((await t.client.get("/api/poolnode/rewards?limit=0")).status).toBe(400);
  expect((await t.client.get("/api/poolnode/project/stats?k=BTC")).status).toBe(400);
  type Stats = { coin: string; blocks_found: number; effort: number | null; round_work: number };
  const stats = await get<Stats>("/api/poolnode/project/stats?k=ltc");
  expect(stats).toEqual(expect.objectContaining({ coin: "LTC", blocks_found: 2, round_work: 0 }));
  expect(stats.effort).toBe(0);
  await t.client.post("/api/poolnode/project/unactive");
  for (const path of ["project/stats", `address/info?address=${a}`, "rewards", "payouts", "profit"])
    expect((await t.client.get<{ status: number }>(`/api/poolnode/${path}`)).body.status).toBe(4);
});
