import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { makeEngine, makePort, type TestEngine, until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

// End-to-end runs over real sockets; bounded by the miners' own limits, not by wall time.
setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(
  poolOpts: ConstructorParameters<typeof TestPool>[0] = {},
): Promise<{ pool: TestPool; t: TestEngine }> {
  const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, ...poolOpts });
  const t = makeEngine();
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
  );
  return { pool, t };
}

describe("miner → proxy → pool", () => {
  for (const [name, mode] of [
    ["Efficient", ProxyMode.EFFICIENT],
    ["Compatible", ProxyMode.COMPATIBLE],
  ] as const) {
    test(`${name} mode: every share the miner sees accepted was verified and credited by the pool`, async () => {
      const { pool, t } = await setup();
      const port = makePort({ pool_address: pool.address, mode });
      const listen = await t.start(port);
      const miner = TestMiner.start({
        port: listen,
        user: "wal.rig1",
        versionRolling: true,
        maxShares: 30,
        maxMs: 20_000,
      });
      const r = await miner.done;
      expect(r.authorized).toBe(true);
      expect(r.accepted).toBe(30);
      expect(pool.workers.get("wal.rig1")?.shares).toBe(30);
      expect(pool.rejects.size).toBe(0);
      const devices = t.engine.live.workers(port.id);
      expect(devices.length).toBe(1);
      expect(devices[0]?.valid).toBe(30);
      expect(devices[0]?.wallet).toBe("wal");
    });
  }

  for (const [name, mode] of [
    ["Pool", ProxyMode.POOL],
    ["Efficient", ProxyMode.EFFICIENT],
  ] as const) {
    test(`${name} mode: a new block reaches the miner as a clean job, a new job on the same block as not clean`, async () => {
      // A miner told "not clean" on a new block keeps hashing stale work; told "clean" on every
      // job, it throws away work the pool would still take. Jobs come only when the test sends one.
      const { pool, t } = await setup({ jobIntervalMs: 0 });
      // Pool mode needs the unified wallet (spec 5): its shared session is logged in under it.
      const listen = await t.start(
        makePort({ pool_address: pool.address, mode, proxy_addr: "farm", proxy_device: "proxy" }),
      );
      const miner = TestMiner.start({
        port: listen,
        user: "wal.rig1",
        hashesPerSecond: 2_000,
        maxMs: 30_000,
      });
      cleanup.push(() => miner.stop());
      const r = miner.report;
      const seen: Array<[number, number]> = [];
      const next = async (send: () => void) => {
        const jobs = r.jobs;
        send();
        await until(() => r.jobs > jobs);
        seen.push([r.jobs, r.cleanJobs]);
      };
      await until(() => r.jobs >= 1);
      seen.push([r.jobs, r.cleanJobs]);
      await next(() => pool.newJob());
      await next(() => pool.newBlock());
      await next(() => pool.newJob());
      await next(() => pool.newBlock());
      // the first job a miner gets is clean; then each as the pool sent it
      expect(seen).toEqual([
        [1, 1],
        [2, 1],
        [3, 2],
        [4, 2],
        [5, 3],
      ]);
      await until(() => r.accepted >= 2);
      expect(pool.rejects.size).toBe(0);
    });
  }

  test("scrypt port (LTC): shares hashed with scrypt are verified by the pool; work uses the scrypt factor", async () => {
    const pool = await TestPool.start({
      category: "scrypt",
      difficulty: 1e-9,
      extranonce2Size: 8,
      versionRolling: false,
    });
    const t = makeEngine();
    cleanup.push(
      () => pool.stop(),
      () => t.engine.shutdown(),
    );
    const port = makePort({ pool_address: pool.address, category: "scrypt", currency: "LTC" });
    const listen = await t.start(port);
    const r = await TestMiner.start({
      port: listen,
      user: "ltc.rig",
      category: "scrypt",
      maxShares: 10,
      maxMs: 30_000,
    }).done;
    expect(r.accepted).toBe(10);
    expect(pool.workers.get("ltc.rig")?.shares).toBe(10);
    expect(t.engine.live.portStats(port.id).fee.totalWork).toBeCloseTo(10 * 1e-9 * 65536, 12);
  });
});
