/**
 * The Equihash family end to end: real sockets on 127.0.0.1, an Equihash test pool that verifies
 * every share (the solution for the header built from the job, the NONCE_1 the job was sent under
 * and the share's NONCE_2, then the block hash against the target) and miners that really solve,
 * through the proxy in each mode it offers, with the fee measured at the pools. Live shares use the
 * reduced Equihash parameters of the tests (48,5); the verifier itself is pinned by the Zcash
 * genesis block (equihash-pow.test.ts).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { closeAll, engine, eqPort, miner, pool } from "../support/equihash/e2e-fixture.ts";
import type { TestEqPool } from "../support/equihash/test-pool.ts";
import { feeWallet } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

const modeName = (mode: number): string => (mode === ProxyMode.POOL ? "Pool" : "Efficient");

describe("Equihash through the proxy in each mode (reduced Equihash parameters in the test)", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${modeName(mode)}: two miners' shares are verified and accepted at the pool, each under its own NONCE_1 (reduced Equihash parameters in the test)`, async () => {
      // 2^-10 of diff-1 (target 2^253): one solution in eight meets it, so wrong work is rejected
      const a = await pool({ difficulty: 2 ** -10 });
      const t = engine();
      const port = eqPort({ pool_address: a.address, mode, proxy_addr: "unified", proxy_device: "farm" });
      const listen = await t.start(port);
      const [r1, r2] = await Promise.all([
        miner(listen, { user: "wal.rig1", maxShares: 4 }).done,
        miner(listen, { user: "wal.rig2", maxShares: 4 }).done,
      ]);
      for (const r of [r1, r2]) {
        expect(r.loggedIn).toBe(true);
        expect(r.accepted).toBe(4);
        expect(r.rejected.size).toBe(0);
      }
      expect(a.accepted).toBe(8);
      expect(a.rejects.size).toBe(0);
      const [n1, n2] = [r1.nonce1s[0] ?? "", r2.nonce1s[0] ?? ""];
      if (mode === ProxyMode.POOL) {
        // one shared session; each miner got its NONCE_1 followed by its own slot byte, and the
        // pool saw that byte in front of the miner's NONCE_2
        expect(a.connectionsOpened).toBe(1);
        expect(a.workers.get("unified.farm")?.shares).toBe(8);
        const poolNonce1 = a.nonce1s[0] ?? "";
        for (const n of [n1, n2]) {
          expect(n.length).toBe(poolNonce1.length + 2);
          expect(n.startsWith(poolNonce1)).toBe(true);
        }
        expect(n1).not.toBe(n2);
        const slots = new Set(a.submits.map((s) => String(s[3]).slice(0, 2)));
        expect(slots).toEqual(new Set([n1.slice(-2), n2.slice(-2)]));
      } else {
        expect(a.connectionsOpened).toBe(2);
        expect(a.workers.get("wal.rig1")?.shares).toBe(4);
        expect(a.workers.get("wal.rig2")?.shares).toBe(4);
        expect([n1, n2].sort()).toEqual([...a.nonce1s].sort());
      }
      expect(t.engine.registry.devices(port.id).map((d) => d.valid)).toEqual([4, 4]);
    });

  test("Pool: a pool NONCE_1 of 28 bytes leaves no room for a slot byte and 4 bytes of NONCE_2; the session is refused and logged", async () => {
    const a = await pool({ nonce1Bytes: 28 });
    const t = engine();
    const port = eqPort({
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
const feeShare = (main: TestEqPool, fee: TestEqPool): number =>
  fee.totalWork() / (main.totalWork() + fee.totalWork());

describe("fee on Equihash ports, measured at the pools (reduced Equihash parameters in the test)", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${modeName(mode)}: two miners pay a 25 % fee in accepted work, moved by mining.set_extranonce (reduced Equihash parameters in the test)`, async () => {
      // 2^-8 of diff-1: one solution in 32 meets the target, shares some milliseconds apart, so the
      // scheduler (which moves a miner at most every 100 ms) has time to move miners
      const a = await pool({ difficulty: 2 ** -8 });
      const b = await pool({ difficulty: 2 ** -8 });
      const t = engine();
      const port = eqPort({
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
      expect(results.some((r) => r.setExtranonce > 0)).toBe(true);
      expect(a.accepted + b.accepted).toBe(80);
      expect(a.rejects.size + b.rejects.size).toBe(0);
      expect(b.workers.get("feeaddr.fee")?.shares).toBe(b.accepted);
      const achieved = feeShare(a, b);
      expect(achieved).toBeGreaterThan(0.15);
      expect(achieved).toBeLessThan(0.35);
      expect(t.engine.running(port.id)?.feeView()?.achieved).toBeCloseTo(achieved, 6);
    });
});
