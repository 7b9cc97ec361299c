/**
 * An Equihash fee pool behind a chained appliance (issue 9; docs/rms-tunnel.md, "Fee pools behind
 * the server appliance"): two farm engines, each an Equihash port whose main pool and fee pool are a
 * server engine's RMS3 tunnel ports, in front of two Equihash test pools that verify every share by
 * solving-side hashing of their own (reduced Equihash parameters in the test). Solving test miners
 * connect to the farm ports.
 *
 * A server port gives a tunnel stream its pool's NONCE_1 and, on a shared session, its slot byte;
 * the farm's shared fee session adds a slot byte of its own after those, and its miners solve the
 * rest of the 32-byte nonce. Two farms whose ranges overlapped at the server would send the pools
 * the same nonces, which they refuse as duplicates.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ConnectMode, ListenProtocol, ProxyMode } from "../../appliance/domain/port.ts";
import { closeAll, engine, eqPort, miner, pool } from "../support/equihash/e2e-fixture.ts";
import type { TestEqPool } from "../support/equihash/test-pool.ts";
import { feeWallet } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(120_000);

afterEach(closeAll);

const KEY = "chained equihash fee pools 71c4";
const FEE = 0.25;
const SHARES_PER_MINER = 30;

const modeName = (mode: number): string => (mode === ProxyMode.POOL ? "Pool" : "Efficient");

/** The server's tunnel port in `mode` before `poolAddress`; Pool mode logs in as `unified`.proxy. */
const serverPort = (poolAddress: string, mode: number, unified: string) =>
  eqPort({
    pool_address: poolAddress,
    protocol: ListenProtocol.RMS3,
    mode,
    ...(mode === ProxyMode.POOL ? { proxy_addr: unified, proxy_device: "proxy" } : {}),
  });

/** A farm engine's Efficient port whose main pool and fee pool are the server's tunnel ports. */
async function farm(mainListen: number, feeListen: number): Promise<{ logs: string[]; listen: number }> {
  const t = engine({ kencKey: () => KEY });
  const wallet = {
    ...feeWallet(1, "feeaddr", `127.0.0.1:${feeListen}`, FEE),
    pool_protocol: ConnectMode.RMS3,
  };
  const listen = await t.start(
    eqPort({ pool_address: `127.0.0.1:${mainListen}`, connect_mode: ConnectMode.RMS3, wallets: [wallet] }),
  );
  return { logs: t.logs, listen };
}

const feeShare = (main: TestEqPool, fee: TestEqPool): number =>
  fee.totalWork() / (main.totalWork() + fee.totalWork());

describe("an Equihash fee pool behind a chained appliance's tunnel port (reduced Equihash parameters in the test)", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`server ports in ${modeName(mode)} mode: both farms pay their 25 % fee at the fee pool by moving miners, and no nonce range overlaps (reduced Equihash parameters in the test)`, async () => {
      // one solution in 32 meets it: shares far enough apart for the farms' schedulers to move miners
      const main = await pool({ difficulty: 2 ** -8 });
      const fee = await pool({ difficulty: 2 ** -8 });
      const server = engine({ kencKey: () => KEY });
      const mainListen = await server.start(serverPort(main.address, mode, "srv"));
      const feeListen = await server.start(serverPort(fee.address, mode, "srvfee"));
      const farms = [await farm(mainListen, feeListen), await farm(mainListen, feeListen)];
      const results = await Promise.all(
        farms.flatMap((f, i) =>
          [1, 2].map((j) => miner(f.listen, { user: `wal${i}.rig${j}`, maxShares: SHARES_PER_MINER }).done),
        ),
      );

      for (const r of results) {
        expect(r.loggedIn).toBe(true);
        expect(r.disconnects).toBe(0);
        expect(r.rejected.size).toBe(0);
        expect(r.accepted).toBe(SHARES_PER_MINER);
      }
      // the farm ports moved their miners to the fee session (a NONCE_1 from the fee pool's stream)
      expect(results.some((r) => r.setExtranonce > 0)).toBe(true);
      // every share verified at a pool, none a duplicate of another farm's or miner's work
      expect(main.rejects.size + fee.rejects.size).toBe(0);
      expect(main.accepted + fee.accepted).toBe(4 * SHARES_PER_MINER);
      // both farms' fee sessions reached the fee pool, told apart by the NONCE_1 of their stream
      // (Efficient: a pool session each) or the server's slot byte on its shared session (Pool)
      const feeSessions = new Set(fee.submits.map((s) => String(s[3]).slice(0, 2)));
      if (mode === ProxyMode.EFFICIENT) expect(fee.nonce1s.length).toBeGreaterThanOrEqual(2);
      else expect(feeSessions.size).toBeGreaterThanOrEqual(2);
      // a moved miner mined under the fee pool's NONCE_1, then the server's slot byte on a shared
      // session (Pool), then its farm's slot byte: each appliance re-framed the nonce once
      const framing = mode === ProxyMode.POOL ? 4 : 2;
      expect(
        results.some((r) =>
          r.nonce1s.some((n) => fee.nonce1s.some((p) => n.startsWith(p) && n.length === p.length + framing)),
        ),
      ).toBe(true);
      const achieved = feeShare(main, fee);
      expect(achieved).toBeGreaterThan(0.15);
      expect(achieved).toBeLessThan(0.35);
      for (const f of farms)
        expect(
          f.logs.filter(
            (l) => l.includes("Compatible") || l.includes("too long") || l.includes("not started"),
          ),
        ).toEqual([]);
    });
});
