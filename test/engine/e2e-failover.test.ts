import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

// End-to-end runs over real sockets; bounded by the miners' own limits, not by wall time.
setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const nonStale = (m: TestMiner) => [...m.report.rejected].filter(([code]) => code !== 21).length;

describe("main ↔ standby", () => {
  for (const [name, mode] of [
    ["Efficient", ProxyMode.EFFICIENT],
    ["Pool", ProxyMode.POOL],
  ] as const) {
    test(`${name}: fails over and back with the miner connected and mining throughout`, async () => {
      const main = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
      const standby = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
      const t = makeEngine();
      cleanup.push(
        () => main.stop(),
        () => standby.stop(),
        () => t.engine.shutdown(),
      );
      const port = makePort({
        pool_address: main.address,
        pool_address2: standby.address,
        mode,
        proxy_addr: "farm",
        proxy_device: "px",
      });
      const listen = await t.start(port);
      const miner = TestMiner.start({ port: listen, user: "wal.rig", maxShares: 1_000_000, maxMs: 60_000 });
      cleanup.push(() => miner.stop());
      await until(() => main.accepted >= 50);
      const mainPort = main.port;
      main.stop();
      await until(() => standby.accepted >= 50);
      expect(t.engine.live.portStats(port.id).upstream).toBe("standby");
      const before = main.accepted;
      main.listen(mainPort);
      await until(() => main.accepted >= before + 50);
      expect(t.engine.live.portStats(port.id).upstream).toBe("main");
      const r = await miner.finish();
      expect(r.disconnects).toBe(0);
      expect(nonStale(miner)).toBe(0);
      // Every share the proxy reported accepted was credited by one of the pools. The pool outage
      // may swallow answers to shares it had credited; the proxy reports those as stale.
      const credited = main.accepted + standby.accepted;
      expect(r.accepted).toBeLessThanOrEqual(credited);
      expect(credited - r.accepted).toBeLessThanOrEqual(r.rejected.get(21) ?? 0);
      expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
      expect(t.logs.some((l) => l.includes("returning from standby"))).toBe(true);
    });
  }

  test("a main pool that stops sending jobs counts as failed", async () => {
    const main = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, jobIntervalMs: 100 });
    const standby = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, jobIntervalMs: 100 });
    const t = makeEngine({ jobTimeoutMs: 300, failbackProbeMs: 60_000 });
    cleanup.push(
      () => main.stop(),
      () => standby.stop(),
      () => t.engine.shutdown(),
    );
    const port = makePort({ pool_address: main.address, pool_address2: standby.address });
    const listen = await t.start(port);
    const miner = TestMiner.start({ port: listen, user: "wal.rig", maxShares: 1_000_000, maxMs: 60_000 });
    cleanup.push(() => miner.stop());
    await until(() => main.accepted >= 20);
    main.jobsPaused = true;
    await until(() => standby.accepted >= 20);
    expect(t.engine.live.portStats(port.id).upstream).toBe("standby");
    expect(t.logs.some((l) => l.includes("no job from pool in time"))).toBe(true);
    const r = await miner.finish();
    expect(r.disconnects).toBe(0);
  });

  test("client.reconnect from the pool moves the session; the miner stays", async () => {
    const a = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    const c = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    const t = makeEngine();
    cleanup.push(
      () => a.stop(),
      () => c.stop(),
      () => t.engine.shutdown(),
    );
    const listen = await t.start(makePort({ pool_address: a.address }));
    const miner = TestMiner.start({ port: listen, user: "wal.rig", maxShares: 1_000_000, maxMs: 60_000 });
    cleanup.push(() => miner.stop());
    await until(() => a.accepted >= 20);
    a.sendReconnect("127.0.0.1", c.port);
    await until(() => c.accepted >= 20);
    const r = await miner.finish();
    expect(r.disconnects).toBe(0);
    expect(r.reconnectRequests).toBe(0);
    expect(r.accepted).toBe(a.accepted + c.accepted);
  });

  test("passthrough miner with extranonce.subscribe gets set_extranonce when its session is replaced", async () => {
    const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 2 });
    const t = makeEngine();
    cleanup.push(
      () => pool.stop(),
      () => t.engine.shutdown(),
    );
    const listen = await t.start(makePort({ pool_address: pool.address }));
    const miner = TestMiner.start({
      port: listen,
      user: "old.rig",
      extranonceSubscribe: true,
      maxShares: 1_000_000,
      maxMs: 60_000,
    });
    cleanup.push(() => miner.stop());
    await until(() => pool.accepted >= 20);
    const firstEn1 = miner.report.extranonce1;
    const poolPort = pool.port;
    pool.stop();
    pool.listen(poolPort);
    await until(() => miner.report.setExtranonce >= 1 && pool.accepted >= 40);
    const r = await miner.finish();
    expect(r.disconnects).toBe(0);
    expect(r.extranonce1).not.toBe(firstEn1);
    expect([...r.rejected.keys()].filter((c) => c !== 21)).toEqual([]);
  });
});
