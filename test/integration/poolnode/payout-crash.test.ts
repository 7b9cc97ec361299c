/**
 * Issue 10's kill -9: the appliance runs as its own process, its daemon calls through a relay that
 * can stop a payout at an instant (test/support/poolnode/rpc-relay.ts); the process is killed there,
 * twice, and started again on the same data dir.
 * 1. Killed after the pending payout and its debits are committed, before sendmany reaches the
 *    daemon: at restart the wallet has no transaction with the payout's comment, so the debits are
 *    given back, and the restarted run pays them.
 * 2. Killed after the daemon sent that payout, before the appliance learned the txid: at restart the
 *    wallet's transaction with its comment is found and recorded, and nobody is paid again.
 * The end: the peer's wallet received each miner's credit exactly once (the credits worked out from
 * the shares the test submitted), the balances are 0 and `paid` equals the credit.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client, freePort, tempDir } from "../../support/appliance.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { pplnsTruth, submitPlan } from "../../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, cliJson, RegtestPair } from "../../support/poolnode/regtest.ts";
import { RpcRelay } from "../../support/poolnode/rpc-relay.ts";
import { type Spawned, spawnAppliance } from "../../support/process.ts";
import { until, untilAsync } from "../../support/stratum/port-fixture.ts";

const D = 2 ** -16;
const FEE_PPM = 20_000n;
let stratumPort = 0;
const dataDir = tempDir("pithead-crash-");
let chain: RegtestPair;
let relay: RpcRelay;
let app: Spawned | null = null;
let client: Client;
let poolAddress: string;
let a: string;
let b: string;

interface PayoutView {
  id: number;
  state: string;
  txid: string | null;
  items: { address: string; amount: number; withdrawal_id: number | null }[];
}

const get = async <T>(path: string): Promise<T> =>
  (await client.get<{ status: number; data: T }>(path)).body.data;

async function start(): Promise<void> {
  app = await spawnAppliance(dataDir);
  client = new Client(app.url);
  const password = readFileSync(join(dataDir, "initial-password"), "utf8").trim();
  expect((await client.login("admin", password)).status).toBe(200);
}

async function kill9(): Promise<void> {
  app?.proc.kill("SIGKILL");
  await app?.proc.exited;
  expect(app?.proc.signalCode).toBe("SIGKILL");
  app = null;
}

/** The wallet's send transactions carrying a payout comment (listtransactions lists each output). */
async function walletSends(): Promise<{ txid: string; comment?: string }[]> {
  const all = await cliJson<{ category: string; txid: string; comment?: string }[]>(
    chain.node,
    "listtransactions",
    "*",
    "1000",
  );
  const sends = all.filter((t) => t.category === "send" && t.comment?.startsWith("pithead payout") === true);
  return [...new Map(sends.map((t) => [t.txid, { txid: t.txid, comment: t.comment }])).values()];
}

beforeAll(async () => {
  chain = await RegtestPair.start();
  relay = new RpcRelay(chain.rpcUrl);
  poolAddress = await cli(chain.node, "getnewaddress");
  a = await cli(chain.peer, "getnewaddress");
  b = await cli(chain.peer, "getnewaddress");
  await start();
});

afterAll(async () => {
  if (app !== null) await kill9();
  relay?.stop();
  await chain?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, CHAIN_TEST_MS);

// a window larger than the log: every share counts, A has two of three
const PLAN = () => [a, b, a];

test(
  "killed between the debit and sendmany, then between sendmany and the txid: paid exactly once",
  async () => {
    // taken now rather than when the file loads, so that other processes' ephemeral ports (the
    // daemons', the appliance's) have had less time to land on it
    stratumPort = freePort();
    expect(
      (
        await client.post("/api/poolnode/project/apply", {
          coin: "LTC",
          rpc_url: relay.url,
          rpc_cookie_file: chain.cookieFile,
          pool_address: poolAddress,
          fee: Number(FEE_PPM) / 1e6,
          pplns_window: 1000,
          difficulty: D,
          vardiff_seconds: 0,
          payout_threshold: 0.001,
          payout_interval_seconds: 1,
          stratum_port: stratumPort,
        })
      ).status,
    ).toBe(200);
    expect((await client.post("/api/poolnode/project/active")).status).toBe(200);
    await untilAsync(
      async () =>
        (await get<{ templates: { active: number } }>("/api/poolnode/project/info")).templates.active === 1,
    );
    const miners = new Map<string, HandMiner>();
    for (const address of [a, b]) miners.set(address, await HandMiner.connect(stratumPort, address));
    await submitPlan(miners, PLAN(), D);
    for (const m of miners.values()) m.close();
    type Sync = { blocks: { hash: string; status: string }[] };
    await untilAsync(
      async () => (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.status === "immature",
    );
    const hash = (await get<Sync>("/api/poolnode/sync/info")).blocks[0]?.hash as string;
    const coinbase = (
      await cliJson<{ tx: { vout: { value: number }[] }[] }>(chain.node, "getblock", hash, "2")
    ).tx[0];
    const truth = pplnsTruth(
      PLAN(),
      1000 / D,
      BigInt(Math.round((coinbase?.vout[0]?.value ?? 0) * 1e8)),
      FEE_PPM,
    );
    const owed = (address: string) => Number(truth.credits.get(address));

    // 1. the block matures, is credited, and the payout's sendmany is held at the relay
    relay.mode = "hold";
    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);
    await until(() => relay.sendmany.length === 1);
    const [pending] = await get<PayoutView[]>("/api/poolnode/payouts");
    expect(pending?.state).toBe("pending");
    expect(pending?.items).toEqual(
      [
        { address: a, amount: owed(a), withdrawal_id: null },
        { address: b, amount: owed(b), withdrawal_id: null },
      ].sort((x, y) => x.address.localeCompare(y.address)),
    );
    for (const address of [a, b])
      expect(await get<{ balance: number }>(`/api/poolnode/address/info?address=${address}`)).toEqual(
        expect.objectContaining({ balance: 0, paid: 0 }),
      );
    await kill9();
    expect(await walletSends()).toEqual([]);

    // 2. restarted: the first payout is found unsent and undone, a second one goes to the daemon, which
    // sends it, and the appliance is killed before it hears the txid
    relay.mode = "swallow";
    await start();
    await until(() => relay.sendmany.length === 2);
    await kill9();
    const sent = relay.sendmany[1];
    expect(sent?.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(sent?.comment).not.toBe(relay.sendmany[0]?.comment);
    expect(await walletSends()).toEqual([
      expect.objectContaining({ txid: sent?.txid, comment: sent?.comment }),
    ]);

    // 3. restarted with every call passing: the second payout is found by its comment, nothing is re-paid
    relay.mode = "pass";
    await start();
    await untilAsync(async () => (await get<PayoutView[]>("/api/poolnode/payouts"))[0]?.state !== "pending");
    const payouts = await get<PayoutView[]>("/api/poolnode/payouts");
    expect(payouts.map((p) => [p.id, p.state, p.txid])).toEqual([
      [2, "sent", sent?.txid],
      [1, "failed", null],
    ]);
    // a few more payout cycles: no sendmany reaches the daemon again
    await Bun.sleep(3000);
    expect(relay.sendmany).toHaveLength(2);
    expect(await walletSends()).toHaveLength(1);
    for (const address of [a, b])
      expect(
        await get<{ balance: number; paid: number }>(`/api/poolnode/address/info?address=${address}`),
      ).toEqual(expect.objectContaining({ balance: 0, paid: owed(address) }));

    // the peer received each credit once
    await cli(chain.node, "generatetoaddress", "1", chain.walletAddress);
    const height = await cli(chain.node, "getblockcount");
    await untilAsync(async () => (await cli(chain.peer, "getblockcount")) === height);
    for (const address of [a, b]) {
      const received = Math.round(Number(await cli(chain.peer, "getreceivedbyaddress", address, "1")) * 1e8);
      expect(received).toBe(owed(address));
    }
  },
  CHAIN_TEST_MS,
);
