/**
 * The CryptoNote family end to end in each mode it offers: real xmrig-style miners hashing RandomX,
 * through the proxy, to test pools that verify every share with librandomx.
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { CryptoNoteE2E } from "../support/cryptonote/e2e-fixture.ts";
import { closeSharedRandomX } from "../support/cryptonote/randomx.ts";
import { until } from "../support/stratum/port-fixture.ts";

// Light-mode RandomX at ~22 ms a hash, shared by every miner and pool of the process.
setDefaultTimeout(90_000);

let env: CryptoNoteE2E | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});
afterAll(() => closeSharedRandomX());

describe("CryptoNote Efficient mode", () => {
  test("each miner logs in on its own pool session; every share is verified and accepted", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const port = env.port({ pool_address: pool.address, mode: ProxyMode.EFFICIENT });
    const listen = await env.t.start(port);
    const reports = await Promise.all(
      [0, 1].map(
        (i) =>
          env?.miner({ port: listen, login: `4Wallet${i}.rig${i}`, rigid: `rig${i}`, maxShares: 4 }).done,
      ),
    );
    for (const r of reports) {
      expect(r?.loggedIn).toBe(true);
      expect(r?.accepted).toBe(4);
      expect(r?.rejected.size).toBe(0);
      expect(r?.extensions).toContain("nicehash");
    }
    expect(pool.accepted).toBe(8);
    expect(pool.rejects.size).toBe(0);
    // one pool session per miner, logged in as the miner
    expect(pool.logins.map((l) => l.login).sort()).toEqual(["4Wallet0.rig0", "4Wallet1.rig1"]);
    expect(pool.workerWork("4Wallet0.rig0")).toBeCloseTo(reports[0]?.acceptedWork ?? -1, 6);
    // accepted work = the job's difficulty (from its target) × the randomx factor (1)
    const devices = env.t.engine.live.workers(port.id);
    expect(devices.length).toBe(2);
    await until(() => env?.t.engine.live.portStats(port.id).fee.totalWork !== 0);
    expect(env.t.engine.live.portStats(port.id).fee.totalWork).toBeCloseTo(pool.totalWork(), 6);
  });
});

describe("CryptoNote Pool mode", () => {
  test("several miners on one pool session, each with its own nonce byte; no duplicates", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const port = env.port({
      pool_address: pool.address,
      mode: ProxyMode.POOL,
      proxy_addr: "4Farm",
      proxy_device: "px",
    });
    const listen = await env.t.start(port);
    const miners = [0, 1, 2, 3].map((i) => env?.miner({ port: listen, login: `4W${i}`, maxShares: 3 }));
    const reports = await Promise.all(miners.map((m) => m?.done));
    for (const r of reports) {
      expect(r?.accepted).toBe(3);
      expect(r?.rejected.size).toBe(0);
    }
    // one session, logged in as the unified identity, carried all four miners: they mined the same
    // pool jobs from the same nonce counter, so only their bytes kept the pool from seeing duplicates
    expect(pool.logins.map((l) => l.login)).toEqual(["4Farm.px"]);
    expect(pool.connectionsOpened).toBe(1);
    expect(pool.accepted).toBe(12);
    expect(pool.rejectCount("duplicate")).toBe(0);
    expect(pool.rejects.size).toBe(0);
    const bytes = new Set(reports.flatMap((r) => [...(r?.nonceTopBytes ?? [])]));
    expect(bytes.size).toBeGreaterThan(1);
  });

  test("8-byte targets and a pool raising the difficulty: the proxy counts the work the pool credits", async () => {
    env = new CryptoNoteE2E();
    // Twelve shares, the target raised after every fourth the pool accepts: at difficulty 2 with
    // eight shares the miners could find them all before the first raise reached them (one run in
    // eight under load), and then nothing had been raised
    const pool = await env.pool({ difficulty: 4, targetWidth: 8, vardiff: { everyShares: 4, factor: 2 } });
    const port = env.port({ pool_address: pool.address, mode: ProxyMode.POOL, proxy_addr: "4Farm" });
    const listen = await env.t.start(port);
    const reports = await Promise.all(
      [0, 1].map((i) => env?.miner({ port: listen, login: `4W${i}`, maxShares: 6 }).done),
    );
    for (const r of reports) expect(r?.rejected.size).toBe(0);
    expect(pool.accepted).toBe(12);
    // difficulty 4, then 8, then 16: more than 4 per share on average
    expect(pool.totalWork()).toBeGreaterThan(4 * 12 + 1);
    const view = () => env?.t.engine.live.portStats(port.id).fee.totalWork ?? 0;
    await until(() => view() >= pool.totalWork() - 1e-6);
    expect(view()).toBeCloseTo(pool.totalWork(), 6);
  });
});
