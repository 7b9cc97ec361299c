/**
 * CryptoNote fee diversion, measured at the pools: accepted work at the fee pool against the main
 * pool, with a high ratio so that the few shares a light-mode RandomX test can hash show it. Fee
 * sessions are shared between diverted miners by nonce byte, so the fee pool must see no duplicate.
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { CryptoNoteE2E } from "../support/cryptonote/e2e-fixture.ts";
import { closeSharedRandomX } from "../support/cryptonote/randomx.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(120_000);

let env: CryptoNoteE2E | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});
afterAll(() => closeSharedRandomX());

const RATIO = 0.25;
const MINERS = 3;
const SHARES = 14;

describe("CryptoNote fee by job switching", () => {
  for (const [name, mode] of [
    ["Efficient", ProxyMode.EFFICIENT],
    ["Pool", ProxyMode.POOL],
  ] as const) {
    test(`${name}: a ${RATIO * 100} % fee reaches the fee pool as accepted work; nothing is lost`, async () => {
      // fee sessions stay open between visits, so the count of sessions below is exact
      env = new CryptoNoteE2E({ feeIdleMs: 60_000 });
      const main = await env.pool();
      const fee = await env.pool();
      const port = env.port({
        pool_address: main.address,
        mode,
        proxy_addr: "4Farm",
        proxy_device: "px",
        wallets: [feeWallet(1, "4FeeWallet", fee.address, RATIO)],
      });
      const listen = await env.t.start(port);
      const reports = await Promise.all(
        Array.from(
          { length: MINERS },
          (_, i) => env?.miner({ port: listen, login: `4W${i}`, maxShares: SHARES }).done,
        ),
      );
      for (const r of reports) {
        expect(r?.disconnects).toBe(0);
        expect(r?.accepted).toBe(SHARES);
        expect(r?.rejected.size).toBe(0);
      }
      // every share the miners saw accepted was verified and credited by one of the pools
      expect(main.accepted + fee.accepted).toBe(MINERS * SHARES);
      expect(main.rejects.size + fee.rejects.size).toBe(0);
      const feeWork = fee.workerWork("4FeeWallet.fee");
      const total = main.totalWork() + feeWork;
      expect(feeWork).toBe(fee.totalWork());
      // a handful of fee shares: generous bounds around the configured ratio
      expect(feeWork / total).toBeGreaterThan(RATIO / 2.5);
      expect(feeWork / total).toBeLessThan(RATIO * 2);
      // diverted miners shared one fee session (by nonce byte) instead of opening one each
      expect(fee.connectionsOpened).toBe(1);
      expect(fee.logins.map((l) => l.login)).toEqual(["4FeeWallet.fee"]);
      // what the proxy reports is the pools' tally
      await until(() => (env?.t.engine.live.portStats(port.id).fee.totalWork ?? 0) >= total - 1e-6);
      const view = env.t.engine.live.portStats(port.id).fee;
      expect(Math.abs(view.achieved - feeWork / total)).toBeLessThan(1e-9);
    });
  }

  test("a fee pool that goes away: diverted miners return to the main pool at once and keep mining", async () => {
    env = new CryptoNoteE2E();
    const main = await env.pool();
    const fee = await env.pool();
    const port = env.port({
      pool_address: main.address,
      mode: ProxyMode.POOL,
      proxy_addr: "4Farm",
      wallets: [feeWallet(1, "4FeeWallet", fee.address, 0.5)],
    });
    const listen = await env.t.start(port);
    const miners = [0, 1].map((i) => env?.miner({ port: listen, login: `4W${i}` }));
    await until(() => fee.accepted >= 2);
    fee.stop();
    const at = miners.map((m) => m?.report.accepted ?? 0);
    // each miner, diverted or not, has shares accepted again; a diverted one only if it left the
    // dead fee session (the scheduler alone would keep it there, since the fee is still owed)
    await until(() => miners.every((m, i) => (m?.report.accepted ?? 0) >= (at[i] ?? 0) + 3));
    const reports = await Promise.all(miners.map((m) => m?.finish()));
    for (const r of reports) {
      expect(r?.disconnects).toBe(0);
      // only shares caught on the fee session when it closed may fail, and only as stale
      expect([...(r?.rejected.keys() ?? [])].filter((k) => !/expired|invalid job/i.test(k))).toEqual([]);
    }
    expect(main.rejects.size).toBe(0);
  });

  test("a fee pool on another RandomX seed (another coin) is not used, and the log says so once", async () => {
    env = new CryptoNoteE2E();
    const main = await env.pool();
    const fee = await env.pool({ seedHash: "ab".repeat(32) });
    const port = env.port({
      pool_address: main.address,
      mode: ProxyMode.POOL,
      proxy_addr: "4Farm",
      wallets: [feeWallet(1, "4FeeWallet", fee.address, RATIO)],
    });
    const listen = await env.t.start(port);
    const reports = await Promise.all(
      [0, 1].map((i) => env?.miner({ port: listen, login: `4W${i}`, maxShares: 8 }).done),
    );
    for (const r of reports) expect(r?.accepted).toBe(8);
    expect(main.accepted).toBe(16);
    expect(fee.accepted).toBe(0);
    expect(fee.rejects.size).toBe(0);
    const warned = env.t.logs.filter((l) => l.includes("mines another coin or epoch"));
    expect(warned.length).toBe(1);
  });
});
