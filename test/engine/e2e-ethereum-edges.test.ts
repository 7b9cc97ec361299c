/**
 * The Ethereum family's edges, end to end on 127.0.0.1: failover to the standby pool with miners of
 * both dialects on their sockets, a fee pool on another epoch, a NiceHash miner that cannot take a
 * new extranonce, and hostile input. Pools verify every share with @ethereumjs/ethash.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { LIGHT_CACHE_BUILD_BUDGET_MS, lightCache } from "../support/ethereum/ethash.ts";
import { TestEthMiner, type TestEthMinerOptions } from "../support/ethereum/test-miner.ts";
import { TestEthPool, type TestEthPoolOptions } from "../support/ethereum/test-pool.ts";
import { feeWallet, makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(120_000);

beforeAll(async () => {
  await lightCache(0);
}, LIGHT_CACHE_BUILD_BUDGET_MS);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function pool(opts: TestEthPoolOptions = {}): Promise<TestEthPool> {
  const p = await TestEthPool.start(opts);
  cleanup.push(() => p.stop());
  return p;
}

/** Miners and pools hash on this one thread, so answers can wait seconds: a test machine's timeouts. */
function engine(timing: Parameters<typeof makeEngine>[0] = {}) {
  const t = makeEngine({ connectTimeoutMs: 15_000, jobTimeoutMs: 60_000, ...timing });
  cleanup.push(() => t.engine.shutdown());
  return t;
}

function miner(port: number, opts: Omit<TestEthMinerOptions, "port">): TestEthMiner {
  const m = TestEthMiner.start({ port, ...opts });
  cleanup.push(() => m.stop());
  return m;
}

const ethPort = (over: Parameters<typeof makePort>[0]) =>
  makePort({ currency: "ETC", category: "eth1hash", ...over });

describe("failover", () => {
  test("the main pool goes down: ETHPROXY and NiceHash miners keep their sockets and mine on the standby pool", async () => {
    const a = await pool();
    const b = await pool();
    const t = engine();
    const port = ethPort({ pool_address: a.address, pool_address2: b.address });
    const listen = await t.start(port);
    const eth = miner(listen, { dialect: "ethproxy", user: "wal.eth" });
    const nh = miner(listen, { dialect: "nicehash", user: "wal.nh" });
    await until(
      () => (a.workers.get("wal.eth")?.shares ?? 0) >= 2 && (a.workers.get("wal.nh")?.shares ?? 0) >= 2,
    );
    a.stop();
    await until(
      () => (b.workers.get("wal.eth")?.shares ?? 0) >= 2 && (b.workers.get("wal.nh")?.shares ?? 0) >= 2,
    );
    const [re, rn] = await Promise.all([eth.finish(), nh.finish()]);

    expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
    expect([re.disconnects, rn.disconnects]).toEqual([0, 0]);
    // the NiceHash miner took the standby session's prefix by mining.set_extranonce
    expect(rn.setExtranonce).toBeGreaterThan(0);
    expect(b.rejects.size).toBe(0);
    // every share the miners saw accepted was accepted by a pool (shares cut off by the outage are stale)
    expect(a.accepted + b.accepted).toBe(re.accepted + rn.accepted);
  });
});

describe("fee edges", () => {
  test("a fee pool on another epoch is not used, and the log says why", async () => {
    const a = await pool();
    const b = await pool({ epoch: 1 });
    const t = engine();
    const port = ethPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.3)] });
    const listen = await t.start(port);
    const r = await miner(listen, { dialect: "ethproxy", user: "wal.eth", maxShares: 12 }).done;

    expect(r.accepted).toBe(12);
    expect(a.accepted).toBe(12);
    expect(b.accepted).toBe(0);
    expect(t.logs.some((l) => l.includes("its pool mines another epoch") && l.includes("not used"))).toBe(
      true,
    );
  });

  test("a fee pool that goes down sends its miners back to the main pool at once, both dialects", async () => {
    const a = await pool();
    const b = await pool();
    const t = engine();
    // 90 %: the scheduler keeps both miners on the fee pool, so only its going down brings them back
    const port = ethPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.9)] });
    const listen = await t.start(port);
    const eth = miner(listen, { dialect: "ethproxy", user: "wal.eth" });
    const nh = miner(listen, { dialect: "nicehash", user: "wal.nh" });
    const devices = () => t.engine.registry.devices(port.id);
    // both miners mine for the fee wallet at the moment its pool goes down
    await until(() => devices().length === 2 && devices().every((d) => d.mining !== "main"));
    b.stop();
    await until(() => devices().every((d) => d.mining === "main"));
    const atStop = [a.workers.get("wal.eth")?.shares ?? 0, a.workers.get("wal.nh")?.shares ?? 0];
    await until(
      () =>
        (a.workers.get("wal.eth")?.shares ?? 0) >= (atStop[0] as number) + 3 &&
        (a.workers.get("wal.nh")?.shares ?? 0) >= (atStop[1] as number) + 3,
    );
    const [re, rn] = await Promise.all([eth.finish(), nh.finish()]);
    expect([re.disconnects, rn.disconnects]).toEqual([0, 0]);
    expect(a.rejects.size).toBe(0);
  });

  test("a NiceHash miner without mining.extranonce.subscribe pays its fee on its own session (Compatible-style), logged", async () => {
    const a = await pool();
    const b = await pool();
    const t = engine();
    const port = ethPort({
      pool_address: a.address,
      mode: ProxyMode.EFFICIENT,
      wallets: [feeWallet(1, "feeaddr", b.address, 0.3)],
    });
    const listen = await t.start(port);
    const r = await miner(listen, {
      dialect: "nicehash",
      user: "wal.nh",
      extranonceSubscribe: false,
      maxShares: 20,
    }).done;

    expect(r.accepted).toBe(20);
    expect(r.setExtranonce).toBe(0);
    expect(
      t.logs.some((l) => l.includes("no mining.extranonce.subscribe") && l.includes("Compatible fee")),
    ).toBe(true);
    // the fee worker's shares went to the main pool on the miner's own session; the fee pool saw none
    expect(b.connectionsOpened).toBe(0);
    const fee = a.workers.get("feeaddr.fee")?.shares ?? 0;
    expect(fee).toBeGreaterThan(0);
    expect(fee + (a.workers.get("wal.nh")?.shares ?? 0)).toBe(20);
    expect(fee / 20).toBeGreaterThan(0.15);
    expect(fee / 20).toBeLessThan(0.45);
  });
});

describe("hostile input", () => {
  const ethproxyError = (c: RawClient, id: number): { code?: number; message?: string } | undefined =>
    c.answer(id)?.error as { code?: number; message?: string } | undefined;

  test("submit before login, malformed JSON, unknown methods, bad nonce hex: errors; repeated strikes and an oversize line close the socket", async () => {
    const a = await pool();
    const t = engine();
    const listen = await t.start(ethPort({ pool_address: a.address }));

    // ETHPROXY: nothing before login
    const c = await RawClient.connect(listen);
    c.send(
      `${JSON.stringify({ id: 1, jsonrpc: "2.0", method: "eth_submitWork", params: ["0x00", "0x00", "0x00"] })}\n`,
    );
    c.send("this is not json\n");
    c.send(`${JSON.stringify({ id: 3, jsonrpc: "2.0", method: "eth_teleport", params: [] })}\n`);
    c.send(
      `${JSON.stringify({ id: 4, jsonrpc: "2.0", method: "eth_submitLogin", params: ["wal.raw", "x"] })}\n`,
    );
    await until(() => c.answer(4) !== undefined);
    // answered in the dialect the request speaks: ETHPROXY's {code, message} beside result false
    expect(c.answer(1)?.result).toBe(false);
    expect(ethproxyError(c, 1)?.code).toBe(24);
    expect(c.answer(3)?.error).toBeTruthy();
    expect(JSON.parse(c.lines[1] as string).error).toBeTruthy();
    expect(t.logs.some((l) => l.includes("unknown method eth_teleport"))).toBe(true);
    expect(c.answer(4)?.result).toBe(true);
    // logged in: a nonce that is not 8 bytes of hex is refused, the socket stays
    c.send(
      `${JSON.stringify({ id: 5, jsonrpc: "2.0", method: "eth_submitWork", params: ["0xzz", `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`] })}\n`,
    );
    c.send(
      `${JSON.stringify({ id: 6, jsonrpc: "2.0", method: "eth_submitWork", params: [`0x${"00".repeat(8)}`, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`] })}\n`,
    );
    await until(() => c.answer(6) !== undefined);
    expect(ethproxyError(c, 5)?.message).toContain("nonce");
    // a well-formed share for work it was never given is stale, answered locally
    expect(ethproxyError(c, 6)?.code).toBe(21);
    expect(a.rejects.size).toBe(0);
    expect(c.closed).toBe(false);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);

    // EthereumStratum/1.0.0: submit before subscribe, a subscribe for another protocol
    const n = await RawClient.connect(listen);
    n.request(1, "mining.submit", ["wal.raw", "1", "00"]);
    n.request(2, "mining.subscribe", ["raw/1.0", "EthereumStratum/2.0.0"]);
    n.request(3, "mining.authorize", ["wal.raw", "x"]);
    await until(() => n.answer(3) !== undefined);
    expect((n.answer(1)?.error as unknown[] | undefined)?.[0]).toBe(24);
    expect((n.answer(2)?.error as unknown[] | undefined)?.[0]).toBe(20);
    expect((n.answer(3)?.error as unknown[] | undefined)?.[0]).toBe(25);

    // one line over the bound closes the socket
    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"eth_submitLogin","params":["${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);
    n.close();
  });
});
