/**
 * The KawPow family end to end: real sockets on 127.0.0.1, a KawPow test pool and hashing miners,
 * through the proxy in each mode it offers, with the fee measured at the pools. STRUCTURE ONLY: the
 * pool checks each share's structure (its job, header hash, nonce prefix, uniqueness) and the
 * test-only stand-in hash of test/support/kawpow/stand-in-pow.ts instead of ProgPoW.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { closeAll, engine, kawPort, miner, pool } from "../support/kawpow/e2e-fixture.ts";
import type { TestKawPool } from "../support/kawpow/test-pool.ts";
import { feeWallet } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

const modeName = (mode: number): string => (mode === ProxyMode.POOL ? "Pool" : "Efficient");

describe("KawPow through the proxy in each mode (structure only)", () => {
  const cases = [
    [ProxyMode.EFFICIENT, 0],
    [ProxyMode.EFFICIENT, 2],
    [ProxyMode.POOL, 1],
    [ProxyMode.POOL, 2],
  ] as const;
  for (const [mode, prefixBytes] of cases)
    test(`${modeName(mode)}, pool prefix of ${prefixBytes} byte(s): two miners' shares are accepted at the pool, each nonce inside its own prefix (structure only)`, async () => {
      // 2^-26 of diff-1: one stand-in hash in ~64 meets the target, so wrong work is rejected
      const a = await pool({ difficulty: 2 ** -26, extranonceBytes: prefixBytes });
      const t = engine();
      const port = kawPort({ pool_address: a.address, mode, proxy_addr: "unified", proxy_device: "farm" });
      const listen = await t.start(port);
      const [r1, r2] = await Promise.all([
        miner(listen, { user: "wal.rig1", maxShares: 5 }).done,
        miner(listen, { user: "wal.rig2", maxShares: 5 }).done,
      ]);
      for (const r of [r1, r2]) {
        expect(r.loggedIn).toBe(true);
        expect(r.accepted).toBe(5);
        expect(r.rejected.size).toBe(0);
      }
      expect(a.accepted).toBe(10);
      expect(a.rejects.size).toBe(0);
      const [p1, p2] = [r1.prefixes[0] ?? "", r2.prefixes[0] ?? ""];
      if (mode === ProxyMode.POOL) {
        // one shared session; each miner got the session's prefix followed by its own slot byte
        expect(a.connectionsOpened).toBe(1);
        expect(a.workers.get("unified.farm")?.shares).toBe(10);
        const poolPrefix = a.extranonces[0] ?? "";
        expect(poolPrefix.length).toBe(prefixBytes * 2);
        for (const p of [p1, p2]) {
          expect(p.length).toBe(prefixBytes * 2 + 2);
          expect(p.startsWith(poolPrefix)).toBe(true);
        }
        expect(p1).not.toBe(p2);
      } else {
        // a session per miner, each miner under its own session's prefix
        expect(a.connectionsOpened).toBe(2);
        expect(a.workers.get("wal.rig1")?.shares).toBe(5);
        expect(a.workers.get("wal.rig2")?.shares).toBe(5);
        expect([p1, p2].sort()).toEqual([...a.extranonces].sort());
      }
      const devices = t.engine.registry.devices(port.id);
      expect(devices.map((d) => d.valid)).toEqual([5, 5]);
    });

  test("Pool: a pool prefix of 3 bytes cannot be shared; the session is refused and logged (structure only)", async () => {
    const a = await pool({ extranonceBytes: 3 });
    const t = engine();
    const port = kawPort({
      pool_address: a.address,
      mode: ProxyMode.POOL,
      proxy_addr: "unified",
      proxy_device: "farm",
    });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "wal.rig1", maxShares: 1 }).done;
    expect(r.loggedIn).toBe(false);
    expect(a.accepted).toBe(0);
    expect(t.logs.some((l) => l.includes("too long to share the session"))).toBe(true);
  });
});

/** Share of the work both pools accepted that went to the fee pool. */
const feeShare = (main: TestKawPool, fee: TestKawPool): number =>
  fee.totalWork() / (main.totalWork() + fee.totalWork());

describe("fee on KawPow ports, measured at the pools (structure only)", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${modeName(mode)}: two miners pay a 25 % fee in accepted work, moved by mining.set_extranonce (structure only)`, async () => {
      // 2^-20 of diff-1 (≈4096 stand-in hashes a share): shares tens of milliseconds apart, so the
      // scheduler (which switches a miner at most every 100 ms) has time to move miners
      const a = await pool({ difficulty: 2 ** -20 });
      const b = await pool({ difficulty: 2 ** -20 });
      const t = engine();
      const port = kawPort({
        pool_address: a.address,
        mode,
        proxy_addr: "unified",
        proxy_device: "farm",
        wallets: [feeWallet(1, "feeaddr", b.address, 0.25)],
      });
      const listen = await t.start(port);
      const results = await Promise.all([
        miner(listen, { user: "wal.rig1", maxShares: 40 }).done,
        miner(listen, { user: "wal.rig2", maxShares: 40 }).done,
      ]);
      for (const r of results) {
        expect(r.loggedIn).toBe(true);
        expect(r.rejected.size).toBe(0);
        expect(r.accepted).toBe(40);
      }
      // the fee pool's shares carry its session's prefix: the miners sent there were moved by
      // mining.set_extranonce (the scheduler may take the whole fee from one of the two)
      expect(results.some((r) => r.setExtranonce > 0)).toBe(true);
      expect(a.accepted + b.accepted).toBe(80);
      expect(a.rejects.size + b.rejects.size).toBe(0);
      expect(b.workers.get("feeaddr.fee")?.shares).toBe(b.accepted);
      const achieved = feeShare(a, b);
      expect(achieved).toBeGreaterThan(0.15);
      expect(achieved).toBeLessThan(0.35);
      // the port's own ledger agrees with the pools' tally
      expect(t.engine.running(port.id)?.feeView()?.achieved).toBeCloseTo(achieved, 6);
    });
});
