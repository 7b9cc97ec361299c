/**
 * The Ethereum family end to end: real sockets on 127.0.0.1, a real ethash pool that verifies every
 * share with @ethereumjs/ethash (test/support/ethereum) and hashing miners of both dialects, through
 * the proxy in each mode it offers, with fee measured at the pools.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { LIGHT_CACHE_BUILD_BUDGET_MS, lightCache } from "../support/ethereum/ethash.ts";
import type { Dialect } from "../support/ethereum/methods.ts";
import { TestEthMiner, type TestEthMinerOptions } from "../support/ethereum/test-miner.ts";
import { TestEthPool, type TestEthPoolOptions } from "../support/ethereum/test-pool.ts";
import { feeWallet, makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";

// ≈100 ms a light hash: bounded by the miners' share counts, not by wall time.
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

/**
 * The miners and pools hash on this process's one thread (≈100 ms a hash), so a pool's answer can
 * wait seconds behind them: the connect and job timeouts are a test machine's, not a farm's.
 */
export const HASHING_TIMING = { connectTimeoutMs: 15_000, jobTimeoutMs: 60_000 };

function engine() {
  const t = makeEngine(HASHING_TIMING);
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

describe("Ethereum through the proxy, each dialect in each mode", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    for (const dialect of ["ethproxy", "nicehash"] as Dialect[])
      test(`${mode === ProxyMode.POOL ? "Pool" : "Efficient"}: ${dialect} shares are verified and accepted at the pool`, async () => {
        // 2^-30: one hash in four meets the target, so a nonce rebuilt with the wrong prefix is caught
        const difficulty = 2 ** -30;
        const a = await pool({ difficulty });
        const t = engine();
        const port = ethPort({
          pool_address: a.address,
          mode,
          proxy_addr: "unified",
          proxy_device: "farm",
        });
        const listen = await t.start(port);
        const r = await miner(listen, { dialect, user: "wal.rig1", maxShares: 4, hashrateIntervalMs: 150 })
          .done;
        expect(r.loggedIn).toBe(true);
        expect(r.accepted).toBe(4);
        expect(r.rejected.size).toBe(0);
        expect(a.dialects).toEqual([dialect]);
        const worker = mode === ProxyMode.POOL ? "unified.farm" : "wal.rig1";
        expect(a.workers.get(worker)?.shares).toBe(4);
        const device = t.engine.registry.devices(port.id).find((d) => d.name === "rig1");
        expect(device?.valid).toBe(4);
        if (dialect === "ethproxy") {
          // eth_submitHashrate: the device's local hashrate is the miner's last report; the miner's own
          // session passes every report on, a shared session speaks for many miners and passes none
          expect(r.hashratesSent.length).toBeGreaterThan(0);
          await until(() => device?.localHashrate === Number(r.hashratesSent.at(-1)));
          if (mode === ProxyMode.EFFICIENT) {
            await until(() => a.hashrates.get(worker)?.length === r.hashratesSent.length);
            expect(a.hashrates.get(worker)).toEqual(r.hashratesSent);
          } else expect(a.hashrates.size).toBe(0);
        }
      });
});

test("Efficient: two NiceHash miners, each with its own pool session given the same notify line, mine it under their own prefixes; every share is verified and accepted", async () => {
  // the sessions share one parse of the pool's line (upstream.ts): each must still carry its own
  // prefix and the pool's job id, or the pool's ethash check refuses the shares
  const a = await pool({ difficulty: 2 ** -30 });
  const t = engine();
  const listen = await t.start(ethPort({ pool_address: a.address, mode: ProxyMode.EFFICIENT }));
  const results = await Promise.all(
    ["wal.rigA", "wal.rigB"].map((user) => miner(listen, { dialect: "nicehash", user, maxShares: 3 }).done),
  );
  for (const r of results) {
    expect(r.accepted).toBe(3);
    expect(r.rejected.size).toBe(0);
  }
  expect(a.workers.get("wal.rigA")?.shares).toBe(3);
  expect(a.workers.get("wal.rigB")?.shares).toBe(3);
});

test("Pool: a NiceHash pool prefix of 3 bytes cannot be shared (a slot byte must follow it); the session is refused and logged", async () => {
  const a = await pool({ extranonceBytes: 3 });
  const t = engine();
  const port = ethPort({
    pool_address: a.address,
    mode: ProxyMode.POOL,
    proxy_addr: "unified",
    proxy_device: "farm",
  });
  const listen = await t.start(port);
  const r = await miner(listen, { dialect: "nicehash", user: "wal.rig1", maxShares: 1 }).done;
  expect(r.loggedIn).toBe(false);
  expect(a.accepted).toBe(0);
  expect(t.logs.some((l) => l.includes("is too long to share the session"))).toBe(true);
});

/** Share of the work both pools accepted that went to the fee pool. */
const feeShare = (main: TestEthPool, fee: TestEthPool): number =>
  fee.totalWork() / (main.totalWork() + fee.totalWork());

describe("fee on Ethereum ports, measured at the pools", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${mode === ProxyMode.POOL ? "Pool" : "Efficient"}: an ETHPROXY and a NiceHash miner on one port pay a 25 % fee in accepted work`, async () => {
      const a = await pool();
      const b = await pool();
      const t = engine();
      const port = ethPort({
        pool_address: a.address,
        mode,
        proxy_addr: "unified",
        proxy_device: "farm",
        wallets: [feeWallet(1, "feeaddr", b.address, 0.25)],
      });
      const listen = await t.start(port);
      const eth = miner(listen, { dialect: "ethproxy", user: "wal.eth", maxShares: 30 });
      const nh = miner(listen, { dialect: "nicehash", user: "wal.nh", maxShares: 30 });
      const [re, rn] = await Promise.all([eth.done, nh.done]);

      for (const r of [re, rn]) {
        expect(r.loggedIn).toBe(true);
        expect(r.rejected.size).toBe(0);
        expect(r.accepted).toBe(30);
      }
      // every share the miners were told was accepted was accepted by one of the two pools
      expect(a.accepted + b.accepted).toBe(60);
      expect(a.rejects.size + b.rejects.size).toBe(0);
      // both dialects were diverted: each pool saw both dialects' sessions
      expect([...new Set(b.dialects)].sort()).toEqual(["ethproxy", "nicehash"]);
      expect(b.workers.get("feeaddr.fee")?.shares).toBe(b.accepted);
      // Which miners the port moves is its choice over 60 shares (it balances the port, not each
      // device), so neither is required to have been moved; but a NiceHash share at the fee pool
      // is a NiceHash miner moved there, which only mining.set_extranonce can do.
      if ((b.acceptedByDialect.get("nicehash") ?? 0) > 0) expect(rn.setExtranonce).toBeGreaterThan(0);
      expect(b.accepted).toBeGreaterThan(0);
      const achieved = feeShare(a, b);
      expect(achieved).toBeGreaterThan(0.12);
      expect(achieved).toBeLessThan(0.38);
      // the port's own ledger agrees with the pools' tally
      const view = t.engine.running(port.id)?.feeView();
      expect(view?.achieved).toBeCloseTo(achieved, 6);
    });
});

describe("ETHPROXY identity", () => {
  test("a rig named only in the top-level worker field (Claymore's -eworker) is its own device, credited as wallet.rig", async () => {
    const a = await pool();
    const t = engine();
    const port = ethPort({ pool_address: a.address });
    const listen = await t.start(port);
    const r = await miner(listen, { dialect: "ethproxy", user: "wal", worker: "rigA", maxShares: 2 }).done;

    expect(r.accepted).toBe(2);
    const devices = t.engine.registry.devices(port.id);
    expect(devices.map((d) => [d.wallet, d.name, d.upstreamUser])).toEqual([["wal", "rigA", "wal.rigA"]]);
    expect(a.workers.get("wal.rigA")?.shares).toBe(2);
  });
});
