/**
 * The Alephium family end to end: real sockets on 127.0.0.1, test pools that verify every share with
 * @noble/hashes' blake3 (test/support/alephium) and miners that really hash, through the proxy in each
 * mode it offers, with the fee measured at the pools.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { alphPort, closeAll, engine, miner, pool } from "../support/alephium/e2e-fixture.ts";
import { feeWallet } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

const modeName = (mode: number): string => (mode === ProxyMode.POOL ? "Pool" : "Efficient");

describe("Alephium through the proxy, in each mode", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${modeName(mode)}: two miners' shares are verified and accepted at the pool, each under its own nonce prefix`, async () => {
      const a = pool();
      const t = engine();
      const port = alphPort({ pool_address: a.address, mode, proxy_addr: "unified", proxy_device: "farm" });
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
      expect(a.rejects.size).toBe(0);
      expect(a.accepted).toBe(8);
      if (mode === ProxyMode.POOL) {
        // one shared session: the pool's 2-byte extranonce and a slot byte per miner
        expect(a.workers.get("unified.farm")?.shares).toBe(8);
        expect(a.extranonces.length).toBe(1);
        expect(r1.extranonce.slice(0, 4)).toBe(a.extranonces[0] as string);
        expect(r1.extranonce.length).toBe(6);
        expect(r2.extranonce.slice(0, 4)).toBe(a.extranonces[0] as string);
        expect(r1.extranonce).not.toBe(r2.extranonce);
      } else {
        // a session each, logged in as the miner: each miner holds its session's own prefix
        expect(a.workers.get("wal.rig1")?.shares).toBe(4);
        expect(a.workers.get("wal.rig2")?.shares).toBe(4);
        expect([r1.extranonce, r2.extranonce].sort()).toEqual([...a.extranonces].sort());
      }
      const devices = t.engine.registry.devices(port.id);
      expect(devices.map((d) => d.valid)).toEqual([4, 4]);
      // work is difficulty × 2^34 (the catalogue's blake3 factor)
      const device = devices[0];
      expect(device?.split.total).toBeCloseTo(4 * 2 ** -26 * 2 ** 34, 6);
    });
});

describe("fee on Alephium ports, measured at the pools", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${modeName(mode)}: two miners pay a 25 % fee in accepted work over 200 shares, moved by mining.set_extranonce`, async () => {
      const a = pool();
      const b = pool();
      const t = engine();
      const port = alphPort({
        pool_address: a.address,
        mode,
        proxy_addr: "unified",
        proxy_device: "farm",
        wallets: [feeWallet(1, "feeaddr", b.address, 0.25)],
      });
      const listen = await t.start(port);
      const [r1, r2] = await Promise.all([
        miner(listen, { user: "wal.m1", maxShares: 100 }).done,
        miner(listen, { user: "wal.m2", maxShares: 100 }).done,
      ]);
      for (const r of [r1, r2]) {
        expect(r.accepted).toBe(100);
        expect(r.rejected.size).toBe(0);
        // moved to the fee session and back: its prefix, then the main one again
        expect(r.setExtranonce).toBeGreaterThan(1);
      }
      expect(a.accepted + b.accepted).toBe(200);
      expect(a.rejects.size + b.rejects.size).toBe(0);
      // the fee pool saw one shared session, each miner under its own slot byte after its prefix
      expect(b.workers.get("feeaddr.fee")?.shares).toBe(b.accepted);
      expect(b.extranonces.length).toBe(1);
      const onFee = (r: typeof r1) =>
        new Set(r.extranonces.filter((e) => e.length === 6 && e.startsWith(b.extranonces[0] as string)));
      expect(onFee(r1).size).toBe(1);
      expect(onFee(r2).size).toBe(1);
      expect([...onFee(r1)]).not.toEqual([...onFee(r2)]);
      const achieved = b.totalWork() / (a.totalWork() + b.totalWork());
      expect(achieved).toBeGreaterThan(0.15);
      expect(achieved).toBeLessThan(0.38);
      // the port's own ledger agrees with the pools' tally
      expect(t.engine.running(port.id)?.feeView().achieved).toBeCloseTo(achieved, 6);
    });
});
