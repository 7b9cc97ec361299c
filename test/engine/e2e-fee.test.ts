import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { type MinerReport, TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool, type TestPoolOptions } from "../support/stratum/test-pool.ts";

// End-to-end runs over real sockets; bounded by the miners' own limits, not by wall time.
setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function pools(
  main: TestPoolOptions = {},
  fee: TestPoolOptions = {},
  timing: Parameters<typeof makeEngine>[0] = {},
) {
  const a = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, ...main });
  const b = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, ...fee });
  const t = makeEngine(timing);
  cleanup.push(
    () => a.stop(),
    () => b.stop(),
    () => t.engine.shutdown(),
  );
  return { a, b, t };
}

const rejected = (r: MinerReport) => [...r.rejected.values()].reduce((s, n) => s + n, 0);

/**
 * Hashes per second of a device that finds `sharesPerSecond` shares at the test pools' difficulty:
 * the e2e miners hash at a fixed rate, as real ones do, instead of as fast as the CPU allows (a
 * share every few hundred microseconds, which no farm sees and which the scheduler rate-limits).
 */
const hashrate = (sharesPerSecond: number, difficulty = 2e-8) =>
  Math.round((sharesPerSecond * difficulty * 2 ** 48) / 0xffff);

describe("fee diversion", () => {
  test("Efficient: a 2 % fee to a second pool converges on accepted work and no share is lost", async () => {
    const { a, b, t } = await pools({}, { vardiff: { everyShares: 10, factor: 1.1 } });
    const port = makePort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.02)] });
    const listen = await t.start(port);
    const reports = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) =>
          TestMiner.start({
            port: listen,
            user: `wal.rig${i}`,
            versionRolling: i % 2 === 0,
            hashesPerSecond: hashrate(60),
            maxShares: 500,
            maxMs: 60_000,
          }).done,
      ),
    );
    for (const r of reports) {
      expect(r.disconnects).toBe(0);
      expect(rejected(r)).toBe(0);
      expect(r.accepted).toBe(500);
    }
    // every share the miners saw accepted was verified and credited by one of the two pools
    expect(a.accepted + b.accepted).toBe(4000);
    expect(a.rejects.size + b.rejects.size).toBe(0);
    const feeWork = b.workerWork("feeaddr.fee");
    const total = a.totalWork() + feeWork;
    // the port owes a fee share every 50 shares; the split stays within a few fee shares
    expect(feeWork / total).toBeGreaterThan(0.015);
    expect(feeWork / total).toBeLessThan(0.025);
    // what the proxy reports is the pools' tally
    const view = t.engine.live.portStats(port.id).fee;
    expect(view.configured).toBeCloseTo(0.02, 6);
    expect(view.target).toBeCloseTo(0.02, 6);
    expect(Math.abs(view.achieved - feeWork / total)).toBeLessThan(1e-9);
    expect(Math.abs(view.gap - (feeWork / total - 0.02))).toBeLessThan(1e-9);
    const devices = t.engine.live.workers(port.id);
    expect(devices.length).toBe(8);
    for (const d of devices) expect(d.feeRatio).toBeCloseTo(0.02, 6);
    expect(devices.some((d) => d.pumped.h24 > 0)).toBe(true);
  });

  test("Pool mode: several miners share one upstream session; fee converges", async () => {
    const { a, b, t } = await pools();
    const port = makePort({
      pool_address: a.address,
      mode: ProxyMode.POOL,
      proxy_addr: "farm",
      proxy_device: "proxy",
      wallets: [feeWallet(1, "feeaddr", b.address, 0.05)],
    });
    const listen = await t.start(port);
    const miners = [1, 2, 3].map((i) =>
      TestMiner.start({
        port: listen,
        user: `w${i}.rig${i}`,
        hashesPerSecond: hashrate(150),
        maxShares: 1200,
        maxMs: 60_000,
        versionRolling: i !== 2,
      }),
    );
    const reports = await Promise.all(miners.map((m) => m.done));
    for (const r of reports) {
      expect(r.accepted).toBe(1200);
      expect(r.disconnects).toBe(0);
    }
    expect(a.connectionsOpened).toBe(1);
    expect([...a.workers.keys()]).toEqual(["farm.proxy"]);
    expect(a.accepted + b.accepted).toBe(3600);
    const share = b.workerWork("feeaddr.fee") / (a.workerWork("farm.proxy") + b.workerWork("feeaddr.fee"));
    // each miner is off by at most one visit plus its shares in flight
    expect(share).toBeGreaterThan(0.04);
    expect(share).toBeLessThan(0.06);
    expect(t.engine.live.workers(port.id).length).toBe(3);
  });

  test("Compatible: the fee worker is authorized on the miner's own session to the same pool", async () => {
    const { a, b, t } = await pools();
    const port = makePort({
      pool_address: a.address,
      mode: ProxyMode.COMPATIBLE,
      wallets: [feeWallet(1, "feeaddr", b.address, 0.1)],
    });
    const listen = await t.start(port);
    const r = await TestMiner.start({ port: listen, user: "wal.rig", maxShares: 800, maxMs: 60_000 }).done;
    expect(r.accepted).toBe(800);
    expect(b.accepted).toBe(0);
    expect(a.connectionsOpened).toBe(1);
    const share = a.workerWork("feeaddr.fee") / a.totalWork();
    expect(share).toBeGreaterThan(0.09);
    expect(share).toBeLessThan(0.11);
  });

  test("a main pool with a 4-byte extranonce2 is still switchable (ntime re-issue)", async () => {
    const { a, b, t } = await pools({ extranonce2Size: 4 }, { extranonce2Size: 4 });
    const port = makePort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.05)] });
    const listen = await t.start(port);
    const r = await TestMiner.start({ port: listen, user: "wal.rig", maxShares: 600, maxMs: 60_000 }).done;
    expect(r.accepted).toBe(600);
    expect(a.rejects.size + b.rejects.size).toBe(0);
    expect(b.accepted).toBeGreaterThan(10);
  });

  test("hot update of fee wallets: no disconnect; the fee session closes when no longer used", async () => {
    const { a, b, t } = await pools();
    const port = makePort({ pool_address: a.address });
    const listen = await t.start(port);
    const miner = TestMiner.start({ port: listen, user: "wal.rig", maxShares: 3000, maxMs: 60_000 });
    await until(() => miner.report.accepted >= 200);
    expect(b.accepted).toBe(0);
    await t.engine.updateWallets({ ...port, wallets: [feeWallet(7, "hot", b.address, 0.1)] });
    await until(() => b.accepted >= 20);
    await t.engine.updateWallets({ ...port, wallets: [] });
    const after = b.accepted;
    await until(() => b.connections === 0);
    await until(() => miner.report.accepted >= after + 300 || miner.answered >= 3000);
    const r = await miner.finish();
    expect(r.disconnects).toBe(0);
    expect(rejected(r)).toBe(0);
    expect(b.workerWork("hot.fee")).toBeGreaterThan(0);
  });

  test("hashrate protection: no diversion and no fee accounting while the device is new", async () => {
    const { a, b, t } = await pools();
    await t.engine.shutdown();
    const guarded = makeEngine({ protectMs: 3_600_000 });
    cleanup.push(() => guarded.engine.shutdown());
    const port = makePort({
      pool_address: a.address,
      wallets: [feeWallet(1, "feeaddr", b.address, 0.1)],
      setting: { lj: 1 },
    });
    const listen = await guarded.start(port);
    const r = await TestMiner.start({ port: listen, user: "wal.rig", maxShares: 400, maxMs: 60_000 }).done;
    expect(r.accepted).toBe(400);
    expect(b.accepted).toBe(0);
    expect(guarded.engine.live.portStats(port.id).fee.totalWork).toBe(0);
    expect(guarded.engine.live.workers(port.id)[0]?.valid).toBe(400);
  });

  test("a per-device ratio overrides the port's ratio for that device only", async () => {
    const { a, b, t } = await pools();
    const port = makePort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.05)] });
    const listen = await t.start(port);
    const vip = TestMiner.start({
      port: listen,
      user: "vip.rig",
      hashesPerSecond: hashrate(200),
      maxShares: 1_000_000,
      maxMs: 60_000,
    });
    cleanup.push(() => vip.stop());
    await until(() => t.engine.live.workers(port.id).length === 1);
    t.engine.setDeviceRatio(port.id, "vip", "rig", 0.2);
    await until(() => vip.report.accepted >= 1500);
    await vip.finish();
    const plain = await TestMiner.start({
      port: listen,
      user: "plain.rig",
      hashesPerSecond: hashrate(200),
      maxShares: 1500,
      maxMs: 60_000,
    }).done;
    expect(plain.accepted).toBe(1500);
    const byWallet = new Map(t.engine.live.workers(port.id).map((d) => [d.wallet, d]));
    expect(byWallet.get("vip")?.feeRatio).toBeCloseTo(0.2, 9);
    expect(byWallet.get("vip")?.feeAchieved).toBeGreaterThan(0.18);
    expect(byWallet.get("vip")?.feeAchieved).toBeLessThan(0.22);
    expect(byWallet.get("plain")?.feeRatio).toBeCloseTo(0.05, 9);
    // The scheduler holds a group within a band of four fee-pool shares plus the shares in flight at
    // each move (docs/engine.md): over 1,500 shares that measured up to 6.07 % on a loaded machine.
    // 0.05 ± 0.015 still tells this device's 5 % from the vip's 20 %.
    expect(byWallet.get("plain")?.feeAchieved).toBeGreaterThan(0.035);
    expect(byWallet.get("plain")?.feeAchieved).toBeLessThan(0.065);
  });

  test("Efficient with a 2-byte extranonce2 upstream: passthrough framing, fee falls back to Compatible", async () => {
    const { a, b, t } = await pools({ extranonce2Size: 2 });
    const port = makePort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.1)] });
    const listen = await t.start(port);
    const r = await TestMiner.start({ port: listen, user: "wal.rig", maxShares: 500, maxMs: 60_000 }).done;
    expect(r.extranonce2Size).toBe(2);
    expect(r.accepted).toBe(500);
    expect(b.accepted).toBe(0);
    const share = a.workerWork("feeaddr.fee") / a.totalWork();
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.12);
    expect(t.logs.some((l) => l.includes("using Compatible fee"))).toBe(true);
  });

  test("fee sessions are shared: six miners, two fee wallets, one session per wallet", async () => {
    // idle sessions would otherwise be closed and reopened between visits; and the test timing's 1 s
    // login and 5 s job timeouts, which six in-process hashing miners can overrun on a loaded box,
    // would reopen one too (a fresh-clone CI run once saw three fee sessions)
    const { a, b, t } = await pools(
      {},
      {},
      { feeIdleMs: 60_000, connectTimeoutMs: 10_000, jobTimeoutMs: 60_000 },
    );
    const port = makePort({
      pool_address: a.address,
      wallets: [feeWallet(1, "feeone", b.address, 0.05), feeWallet(2, "feetwo", b.address, 0.03)],
    });
    const listen = await t.start(port);
    const reports = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(
        (i) =>
          TestMiner.start({
            port: listen,
            user: `w${i}.r`,
            hashesPerSecond: hashrate(150),
            maxShares: 1000,
            maxMs: 60_000,
          }).done,
      ),
    );
    for (const r of reports) expect(r.accepted).toBe(1000);
    expect(a.connectionsOpened).toBe(6);
    expect(b.connectionsOpened).toBe(2);
    const total = a.totalWork() + b.totalWork();
    expect(b.workerWork("feeone.fee") / total).toBeGreaterThan(0.04);
    expect(b.workerWork("feeone.fee") / total).toBeLessThan(0.06);
    expect(b.workerWork("feetwo.fee") / total).toBeGreaterThan(0.02);
    expect(b.workerWork("feetwo.fee") / total).toBeLessThan(0.04);
    const wallets = t.engine.live.portStats(port.id).fee.wallets;
    expect(wallets.map((w) => w.configured)).toEqual([0.05, 0.03]);
  });

  test("an unreachable fee pool: the miner keeps mining for the main pool", async () => {
    const { a, b, t } = await pools();
    const deadPort = b.port;
    b.stop();
    const port = makePort({
      pool_address: a.address,
      wallets: [feeWallet(1, "feeaddr", `127.0.0.1:${deadPort}`, 0.1)],
    });
    const listen = await t.start(port);
    const r = await TestMiner.start({ port: listen, user: "wal.rig", maxShares: 300, maxMs: 60_000 }).done;
    expect(r.accepted).toBe(300);
    expect(r.disconnects).toBe(0);
    expect(a.accepted).toBe(300);
    expect(t.logs.some((l) => l.includes("(fee): connect failed"))).toBe(true);
  });
});
