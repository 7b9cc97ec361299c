/**
 * Sub-accounts on the real appliance and a real litecoind in regtest: a sub-account of one miner
 * address (checked with the daemon's validateaddress) and a rebate of 40 %; two hand miners submit
 * shares in a known order, the last a block; at maturity the sub-account is credited 40 % of the fee
 * its member's shares paid — worked out here from the order and the coinbase value litecoin-cli reads
 * — and the fee line gives it up. A withdrawal is requested and held (a second beyond what is left is
 * refused with the balance), another refused gives its hold back, and the approved one is paid at once
 * as a line of one payout with the miners' balances. Its destination is miner B, whose balance that
 * payout also pays: sendmany takes an address once, so B's output is the sum of both lines, and the
 * peer node's wallet shows exactly that in the payout's transaction. After a second block, a
 * withdrawal the wallet cannot afford (the operator spent the rest) is refused by sendmany: the miners'
 * balances are paid alone at once, the withdrawal waits with the wallet's reason and is paid when the
 * wallet can.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { pplnsTruth, submitPlan } from "../../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, cliJson, RegtestPair } from "../../support/poolnode/regtest.ts";
import { untilAsync } from "../../support/stratum/port-fixture.ts";

const D = 2 ** -16;
const FEE_PPM = 20_000n;
const REBATE_PPM = 400_000n;
const stratumPort = freePort();
let chain: RegtestPair;
let t: TestAppliance;
let poolAddress: string;
let a: string;
let b: string;
/** the block's coinbase value in base units, read from the chain */
let reward: bigint;
const miners = new Map<string, HandMiner>();

interface Reply<T> {
  status: number;
  data: T;
  error?: { key: string; field?: string; value?: string; detail?: string };
}
interface Subaccount {
  id: number;
  name: string;
  addresses: string[];
  rebate: number;
  balance: number;
  held: number;
  paid: number;
}
interface Withdrawal {
  id: number;
  subaccount_id: number;
  amount: number;
  address: string;
  state: string;
  payout_id: number | null;
  txid: string | null;
}
interface PayoutView {
  id: number;
  state: string;
  txid: string | null;
  items: { address: string; amount: number; withdrawal_id: number | null }[];
}

const get = async <T>(path: string): Promise<T> => (await t.client.get<Reply<T>>(path)).body.data;
const post = <T>(path: string, body: unknown) => t.client.post<Reply<T>>(path, body);

// B's first share, then A, B, A; A's last is the block: A did 2 shares of 4
const PLAN = () => [b, a, b, a];

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
    pplns_window: 1000 * D,
    difficulty: D,
    vardiff_seconds: 0,
    payout_threshold: 0.001,
    // payouts here run at the start and when a withdrawal is approved, not on the interval
    payout_interval_seconds: 7 * 86_400,
    stratum_port: stratumPort,
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  for (const m of miners.values()) m.close();
  await t?.close();
  await chain?.stop();
});

test("not activated: the sub-account calls answer status 4", async () => {
  expect((await t.client.get<Reply<unknown>>("/api/poolnode/subaccount/configs")).body.status).toBe(4);
  expect((await post("/api/poolnode/subaccount/config", { name: "x", addresses: [a] })).body.status).toBe(4);
  expect((await t.client.get<Reply<unknown>>("/api/poolnode/withdrawal/logs")).body.status).toBe(4);
});

test("a sub-account's members are checked by the daemon, and each address belongs to one sub-account", async () => {
  expect((await t.client.post("/api/poolnode/project/active")).status).toBe(200);
  await untilAsync(
    async () =>
      (await get<{ templates: { active: number } }>("/api/poolnode/project/info")).templates.active === 1,
  );
  const bad = await post("/api/poolnode/subaccount/config", {
    name: "farm",
    addresses: [a, "not-an-address"],
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toEqual(
    expect.objectContaining({
      key: "lang.poolnode.err_address",
      field: "addresses",
      value: "not-an-address",
    }),
  );
  const outOfRange = await post("/api/poolnode/subaccount/config", {
    name: "farm",
    addresses: [a],
    rebate: 1.5,
  });
  expect(outOfRange.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_subaccount_config", field: "rebate" }),
  );
  const created = await post<Subaccount>("/api/poolnode/subaccount/config", { name: "farm", addresses: [a] });
  expect(created.body).toEqual({
    status: 0,
    data: expect.objectContaining({ name: "farm", addresses: [a], rebate: 0, balance: 0 }),
  });
  const id = created.body.data.id;
  const taken = await post("/api/poolnode/subaccount/config", { name: "other", addresses: [a] });
  expect(taken.body.error).toEqual(expect.objectContaining({ key: "lang.poolnode.err_member", value: a }));
  const rebate = await post<Subaccount>("/api/poolnode/subaccount/rebate", {
    id,
    rebate: Number(REBATE_PPM) / 1e6,
  });
  expect(rebate.body.data.rebate).toBe(0.4);
  expect(await get<Subaccount[]>("/api/poolnode/subaccount/configs")).toEqual([
    expect.objectContaining({ id, name: "farm", addresses: [a], rebate: 0.4 }),
  ]);
  const audit = JSON.stringify((await t.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain("pool-node sub-account farm");
});

test(
  "at maturity the sub-account is credited its rebate, taken from the fee line, exactly as the shares say",
  async () => {
    for (const address of [a, b]) miners.set(address, await HandMiner.connect(stratumPort, `${address}.rig`));
    await submitPlan(miners, PLAN(), D);
    type Sync = { blocks: { hash: string; status: string }[] };
    await untilAsync(
      async () => (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.status === "immature",
    );
    const hash = (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.hash as string;
    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);
    type Reward = {
      hash: string;
      credits: { address: string; amount: number; kind: string; subaccount_id: number | null }[];
    };
    await untilAsync(async () => (await get<Reward[]>("/api/poolnode/rewards")).length === 1);

    const coinbase = (
      await cliJson<{ tx: { vout: { value: number }[] }[] }>(chain.node, "getblock", hash, "2")
    ).tx[0];
    reward = BigInt(Math.round((coinbase?.vout[0]?.value ?? 0) * 1e8));
    const truth = pplnsTruth(PLAN(), PLAN().length, reward, FEE_PPM);
    // the fee as charged (before rounding), A's 2 shares of 4 of it, 40 % of that, rounded down once
    const charged = reward - (reward * (1_000_000n - FEE_PPM)) / 1_000_000n;
    const rebate = (charged * REBATE_PPM * 2n) / (4n * 1_000_000n);
    const [sub] = await get<Subaccount[]>("/api/poolnode/subaccount/configs");
    const [rewarded] = await get<Reward[]>("/api/poolnode/rewards");
    expect(
      new Set(rewarded?.credits.map((c) => `${c.kind} ${c.address} ${c.amount} ${c.subaccount_id}`)),
    ).toEqual(
      new Set([
        `pplns ${a} ${truth.credits.get(a)} null`,
        `pplns ${b} ${truth.credits.get(b)} null`,
        `rebate  ${rebate} ${sub?.id}`,
        `fee ${poolAddress} ${truth.fee - rebate} null`,
      ]),
    );
    expect(BigInt(sub?.balance ?? 0)).toBe(rebate);
    const can = await get<{ balance: number; min: number }>(
      `/api/poolnode/withdrawal/can/apply?id=${sub?.id}`,
    );
    expect(can).toEqual(expect.objectContaining({ balance: Number(rebate), min: 100_000 }));
  },
  CHAIN_TEST_MS,
);

test(
  "a withdrawal is held, one beyond the rest refused, a refused one given back, the approved one paid to the peer's wallet",
  async () => {
    const [sub] = await get<Subaccount[]>("/api/poolnode/subaccount/configs");
    const destination = b;
    const id = sub?.id as number;
    const balance = sub?.balance as number;
    const amount = balance - 300_000;
    const tooMuch = await post("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount: balance + 1,
      address: destination,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toEqual(
      expect.objectContaining({ key: "lang.poolnode.err_balance", field: "amount", detail: String(balance) }),
    );
    const badAddress = await post("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount,
      address: "nowhere",
    });
    expect(badAddress.body.error).toEqual(
      expect.objectContaining({ key: "lang.poolnode.err_address", field: "address" }),
    );

    const requested = await post<Withdrawal>("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount,
      address: destination,
    });
    expect(requested.body.data).toEqual(
      expect.objectContaining({ state: "requested", amount, address: destination }),
    );
    // held at once: the same request again is beyond what is left
    const twice = await post("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount,
      address: destination,
    });
    expect(twice.body.error).toEqual(
      expect.objectContaining({ key: "lang.poolnode.err_balance", detail: "300000" }),
    );
    const small = await post<Withdrawal>("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount: 300_000,
      address: destination,
    });
    expect((await get<{ balance: number }>(`/api/poolnode/withdrawal/can/apply?id=${id}`)).balance).toBe(0);
    const refused = await post<Withdrawal>("/api/poolnode/withdrawal/refuse", {
      id: small.body.data.id,
      reason: "later",
    });
    expect(refused.body.data.state).toBe("refused");
    expect(
      await get<{ balance: number; held: number }>(`/api/poolnode/withdrawal/can/apply?id=${id}`),
    ).toEqual(expect.objectContaining({ balance: 300_000, held: amount }));
    expect((await post("/api/poolnode/withdrawal/refuse", { id: small.body.data.id })).status).toBe(409);

    // approved: a payout cycle runs at once (the interval is a week) and pays it in one sendmany
    const wid = requested.body.data.id;
    expect((await post<Withdrawal>("/api/poolnode/withdrawal/approve", { id: wid })).body.data.state).toBe(
      "approved",
    );
    await untilAsync(
      async () =>
        (await get<Withdrawal[]>(`/api/poolnode/withdrawal/logs?subaccount_id=${id}`)).find(
          (w) => w.id === wid,
        )?.state === "paid",
    );
    const paid = (await get<Withdrawal[]>("/api/poolnode/withdrawal/logs")).find(
      (w) => w.id === wid,
    ) as Withdrawal;
    const [payout] = await get<PayoutView[]>("/api/poolnode/payouts");
    expect(payout?.id).toBe(paid.payout_id as number);
    expect(payout?.txid).toBe(paid.txid);
    // B's balance from the block and the withdrawal: two lines of one payout
    const bCredit = pplnsTruth(PLAN(), PLAN().length, reward, FEE_PPM).credits.get(b) as bigint;
    expect(payout?.items.filter((i) => i.address === b)).toEqual([
      { address: b, amount: Number(bCredit), withdrawal_id: null },
      { address: b, amount, withdrawal_id: wid },
    ]);
    expect(await get<Subaccount[]>("/api/poolnode/subaccount/configs")).toEqual([
      expect.objectContaining({ balance: 300_000, held: 0, paid: amount }),
    ]);

    // the peer's wallet: the payout's transaction, and exactly the amount at the destination
    const txid = paid.txid as string;
    await chain.peerReceives(txid);
    await cli(chain.node, "generatetoaddress", "1", chain.walletAddress);
    const height = await cli(chain.node, "getblockcount");
    await untilAsync(async () => (await cli(chain.peer, "getblockcount")) === height);
    const unspent = await cliJson<{ txid: string; amount: number }[]>(
      chain.peer,
      "listunspent",
      "1",
      "9999999",
      JSON.stringify([destination]),
    );
    expect(unspent.map((u) => [u.txid, Math.round(u.amount * 1e8)])).toEqual([
      [txid, Number(bCredit) + amount],
    ]);
  },
  CHAIN_TEST_MS,
);

test(
  "a withdrawal the wallet cannot pay does not hold up the miners' payout; it waits, with the wallet's reason, and is paid once it can be",
  async () => {
    // a second block: the miners have balances again and the sub-account a second rebate
    type Sync = { blocks: { hash: string; status: string }[] };
    const tip = await cli(chain.node, "getbestblockhash");
    for (const m of miners.values()) await m.jobOn(tip);
    await submitPlan(miners, PLAN(), D);
    await untilAsync(async () => {
      const [latest] = (await get<Sync>("/api/poolnode/sync/info")).blocks;
      return latest?.status === "immature" && latest.hash !== tip;
    });
    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);
    await untilAsync(async () => (await get<unknown[]>("/api/poolnode/rewards")).length === 2);
    const [sub] = await get<Subaccount[]>("/api/poolnode/subaccount/configs");
    const id = sub?.id as number;
    const amount = (sub?.balance as number) - 300_000;
    const due = new Map<string, number>();
    for (const address of [a, b])
      due.set(
        address,
        (await get<{ balance: number }>(`/api/poolnode/address/info?address=${address}`)).balance,
      );
    const owed = [...due.values()].reduce((x, y) => x + y, 0);
    expect(owed).toBeGreaterThan(0);

    // the wallet keeps enough for the miners' balances and half the withdrawal: the operator spent the rest
    const keep = owed + Math.floor(amount / 2);
    const spendable = Math.round(Number(await cli(chain.node, "getbalance")) * 1e8);
    const elsewhere = await cli(chain.peer, "getnewaddress");
    await cli(chain.node, "sendtoaddress", elsewhere, ((spendable - keep) / 1e8).toFixed(8), "", "", "true");
    expect(Math.round(Number(await cli(chain.node, "getbalance")) * 1e8)).toBe(keep);

    const requested = await post<Withdrawal>("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount,
      address: b,
    });
    const wid = requested.body.data.id;
    const before = (await get<PayoutView[]>("/api/poolnode/payouts")).length;
    expect((await post("/api/poolnode/withdrawal/approve", { id: wid })).status).toBe(200);
    await untilAsync(async () => (await get<PayoutView[]>("/api/poolnode/payouts")).length === before + 2);
    const [alone, refused] = await get<(PayoutView & { error: string })[]>("/api/poolnode/payouts");
    expect(refused).toEqual(expect.objectContaining({ state: "failed", txid: null }));
    expect(refused?.items.map((i) => i.withdrawal_id)).toContain(wid);
    expect(refused?.error).toContain("Insufficient funds");
    expect(alone?.state).toBe("sent");
    expect(alone?.items).toEqual(
      [a, b].sort().map((address) => ({ address, amount: due.get(address) as number, withdrawal_id: null })),
    );
    const waiting = (await get<(Withdrawal & { reason: string })[]>("/api/poolnode/withdrawal/logs")).find(
      (w) => w.id === wid,
    );
    expect(waiting).toEqual(expect.objectContaining({ state: "approved", payout_id: null, txid: null }));
    expect(waiting?.reason).toContain("Insufficient funds");
    expect(await get<Subaccount[]>("/api/poolnode/subaccount/configs")).toEqual([
      expect.objectContaining({ balance: 300_000, held: amount }),
    ]);

    // a new block matures a coinbase into the wallet; the next cycle (here: the pool's start) pays it
    await cli(chain.node, "generatetoaddress", "1", chain.walletAddress);
    expect((await t.client.post("/api/poolnode/project/unactive")).status).toBe(200);
    expect((await t.client.post("/api/poolnode/project/active")).status).toBe(200);
    await untilAsync(
      async () =>
        (await get<Withdrawal[]>("/api/poolnode/withdrawal/logs")).find((w) => w.id === wid)?.state ===
        "paid",
    );
    const paid = (await get<(Withdrawal & { reason: string })[]>("/api/poolnode/withdrawal/logs")).find(
      (w) => w.id === wid,
    ) as Withdrawal & { reason: string };
    expect(paid.reason).toBe("");
    const [payout] = await get<PayoutView[]>("/api/poolnode/payouts");
    expect(payout?.items).toEqual([{ address: b, amount, withdrawal_id: wid }]);
    const received = await chain.peerReceives(paid.txid as string);
    expect(
      received.details
        .filter((d) => d.category === "receive")
        .map((d) => [d.address, Math.round(d.amount * 1e8)]),
    ).toEqual([[b, amount]]);
    expect(await get<Subaccount[]>("/api/poolnode/subaccount/configs")).toEqual([
      expect.objectContaining({ balance: 300_000, held: 0 }),
    ]);
  },
  CHAIN_TEST_MS,
);

test("a request not yet decided can be cancelled, which frees its hold; any other is 409", async () => {
  const [sub] = await get<Subaccount[]>("/api/poolnode/subaccount/configs");
  const id = sub?.id as number;
  const requested = await post<Withdrawal>("/api/poolnode/withdrawal/submit", {
    subaccount_id: id,
    amount: 300_000,
    address: b,
  });
  expect((await get<{ balance: number }>(`/api/poolnode/withdrawal/can/apply?id=${id}`)).balance).toBe(0);
  const cancelled = await post<Withdrawal>("/api/poolnode/withdrawal/cancel", { id: requested.body.data.id });
  expect(cancelled.body.data).toEqual(expect.objectContaining({ state: "cancelled", amount: 300_000 }));
  expect(await get<{ balance: number; held: number }>(`/api/poolnode/withdrawal/can/apply?id=${id}`)).toEqual(
    expect.objectContaining({ balance: 300_000, held: 0 }),
  );
  expect(
    (await get<Withdrawal[]>("/api/poolnode/withdrawal/logs")).some((w) => w.id === requested.body.data.id),
  ).toBe(false);
  expect((await post("/api/poolnode/withdrawal/cancel", { id: requested.body.data.id })).status).toBe(409);
  const paid = (await get<Withdrawal[]>("/api/poolnode/withdrawal/logs")).find((w) => w.state === "paid");
  const notRequested = await post("/api/poolnode/withdrawal/cancel", { id: paid?.id });
  expect(notRequested.status).toBe(409);
  expect(notRequested.body.error?.key).toBe("lang.poolnode.err_withdrawal_state");
  const audit = JSON.stringify((await t.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain(`pool-node withdrawal ${requested.body.data.id}`);
});

test(
  "a sub-account is deleted only once it holds nothing; its history keeps its name, its addresses are free",
  async () => {
    const [sub] = await get<Subaccount[]>("/api/poolnode/subaccount/configs");
    const id = sub?.id as number;
    const notEmpty = await post("/api/poolnode/subaccount/delete", { id });
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.body.error).toEqual(
      expect.objectContaining({
        key: "lang.poolnode.err_subaccount_not_empty",
        detail: "balance 300000, held 0",
      }),
    );
    // the rest withdrawn and paid: nothing left, the sub-account can go
    const last = await post<Withdrawal>("/api/poolnode/withdrawal/submit", {
      subaccount_id: id,
      amount: 300_000,
      address: b,
    });
    expect((await post("/api/poolnode/withdrawal/approve", { id: last.body.data.id })).status).toBe(200);
    await untilAsync(
      async () =>
        (await get<Withdrawal[]>("/api/poolnode/withdrawal/logs")).find((w) => w.id === last.body.data.id)
          ?.state === "paid",
    );
    const deleted = await post("/api/poolnode/subaccount/delete", { id });
    expect(deleted.body).toEqual({ status: 0, data: { id } });
    expect(await get<Subaccount[]>("/api/poolnode/subaccount/configs")).toEqual([]);
    expect((await get<{ name: string }[]>("/api/poolnode/withdrawal/logs")).map((w) => w.name)).toContain(
      `farm (deleted #${id})`,
    );
    expect((await t.client.get(`/api/poolnode/withdrawal/can/apply?id=${id}`)).status).toBe(404);
    expect((await post("/api/poolnode/subaccount/delete", { id })).status).toBe(404);
    // its member and its name are free again
    const again = await post<Subaccount>("/api/poolnode/subaccount/config", { name: "farm", addresses: [a] });
    expect(again.body.data).toEqual(expect.objectContaining({ name: "farm", addresses: [a], balance: 0 }));
    expect(again.body.data.id).not.toBe(id);
  },
  CHAIN_TEST_MS,
);
