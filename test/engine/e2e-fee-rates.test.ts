/**
 * The fee at real share rates, end to end: hashing miners that find shares at a fixed hashrate, a
 * proxy port, and two pools that verify every share and tally accepted work — the pools' tally is
 * the truth. Fewer shares than the benchmark's 100,000, so the tolerances are wider; bounded by share
 * counts, never by wall time.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(120_000);

const MAIN_DIFFICULTY = 2e-8;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Hashes per second of a device finding `sharesPerSecond` shares at the main pool's difficulty. */
const hashrate = (sharesPerSecond: number) =>
  Math.round((sharesPerSecond * MAIN_DIFFICULTY * 2 ** 48) / 0xffff);

async function farm(mode: number, ratio: number) {
  const main = await TestPool.start({ difficulty: MAIN_DIFFICULTY, extranonce2Size: 8 });
  // the fee pool at twice the difficulty: the split must hold in work, not in share count
  const fee = await TestPool.start({ difficulty: 2 * MAIN_DIFFICULTY, extranonce2Size: 8 });
  const t = makeEngine();
  cleanup.push(
    () => main.stop(),
    () => fee.stop(),
    () => t.engine.shutdown(),
  );
  const port = makePort({
    pool_address: main.address,
    mode,
    proxy_addr: "farm",
    proxy_device: "proxy",
    limit_connections: 5000,
    wallets: [feeWallet(1, "feewallet", fee.address, ratio)],
  });
  const listen = await t.start(port);
  const start = (i: number, sharesPerSecond: number) =>
    TestMiner.start({
      port: listen,
      user: `w${i}.rig${i}`,
      hashesPerSecond: hashrate(sharesPerSecond),
      maxShares: 1_000_000,
      maxMs: 110_000,
    });
  const achieved = () => {
    const f = fee.workerWork("feewallet.fee");
    return f / (f + main.totalWork());
  };
  const shares = () => main.accepted + fee.accepted;
  return { main, fee, t, port, start, achieved, shares };
}

/**
 * Stops the miners and waits for the answers to their last shares: a stopped miner reads nothing,
 * so stopping it with a share in flight would leave that share unanswered for ever.
 */
async function drain(miners: TestMiner[]): Promise<void> {
  await Promise.all(miners.map((m) => m.finish()));
  for (const m of miners) {
    expect(m.report.disconnects).toBe(0);
    expect(m.answered).toBe(m.report.submitted);
  }
}

describe("fee at real share rates", () => {
  test("100 slow miners (a share every 2 s each): the fee starts at once and converges at the port", async () => {
    const f = await farm(ProxyMode.EFFICIENT, 0.02);
    const miners = Array.from({ length: 100 }, (_, i) => f.start(i, 0.5));
    cleanup.push(() => {
      for (const m of miners) m.stop();
    });
    // Per device, the first fee share would be owed after 50 of its own shares (100 s here, 5,000 of
    // the port's shares); at the port it is owed after 50 of the port's shares. A diverted miner then
    // needs about 4 s to find a share at the fee pool's doubled difficulty, so the bound leaves room
    // for that (1,000 shares, 20 s) and still tells the port's balance from the per-device one.
    await until(() => f.fee.accepted > 0 || f.shares() >= 1000, 20);
    expect(f.fee.accepted).toBeGreaterThan(0);
    // Reconnects: a third of the devices leave and come back under the same names; the port keeps
    // the balance they were part of.
    await until(() => f.shares() >= 1000, 20);
    for (let i = 0; i < 33; i++) {
      await miners[i]?.finish();
      miners[i] = f.start(i, 0.5);
    }
    await until(() => f.shares() >= 2000, 20);
    await drain(miners);
    expect(f.main.rejects.size + f.fee.rejects.size).toBe(0);
    expect(f.achieved()).toBeGreaterThan(0.012);
    expect(f.achieved()).toBeLessThan(0.028);
    const view = f.t.engine.live.portStats(f.port.id).fee;
    expect(Math.abs(view.achieved - f.achieved())).toBeLessThan(1e-9);
    // the devices that reconnected are the same devices, not new ones
    expect(f.t.engine.live.workers(f.port.id).length).toBe(100);
  });

  for (const [name, mode] of [
    ["Efficient", ProxyMode.EFFICIENT],
    ["Pool", ProxyMode.POOL],
  ] as const) {
    test(`${name}: 20 miners at 10 shares/s do not over-divert`, async () => {
      const f = await farm(mode, 0.02);
      const miners = Array.from({ length: 20 }, (_, i) => f.start(i, 10));
      cleanup.push(() => {
        for (const m of miners) m.stop();
      });
      await until(() => f.shares() >= 4000, 20);
      await drain(miners);
      expect(f.main.rejects.size + f.fee.rejects.size).toBe(0);
      expect(f.achieved()).toBeGreaterThan(0.016);
      expect(f.achieved()).toBeLessThan(0.024);
      const view = f.t.engine.live.portStats(f.port.id).fee;
      expect(Math.abs(view.achieved - f.achieved())).toBeLessThan(1e-9);
    });
  }
});
