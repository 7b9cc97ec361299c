/**
 * Fee pools behind a chained appliance (issue 9; docs/rms-tunnel.md, "Extranonce of a tunnel
 * stream"): two farm engines, each a port whose main pool and fee pool are a server engine's RMS2 or
 * RMS3 tunnel ports, in front of two test pools that verify every share by hashing it
 * (@noble/hashes). Hashing test miners connect to the farm ports.
 *
 * The two farms are alike on purpose: each farm port hands its miners the slot bytes 00 and 01 and
 * the miners are the same deterministic hashing miner (extranonce2 from 0, nonce from 0, no version
 * rolling), so two streams whose extranonce ranges overlapped at the server would build the same
 * coinbase and send the same shares, which the pool refuses as duplicates (22) — and which the
 * count of distinct extranonce prefixes at the pools would show as well.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ConnectMode, ListenProtocol, type Port, ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makeEngine, makePort, type TestEngine, until } from "../support/stratum/port-fixture.ts";
import { type MinerReport, TestMiner } from "../support/stratum/test-miner.ts";
import { type AcceptedShare, TestPool, type TestPoolOptions } from "../support/stratum/test-pool.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { TcpRelay } from "../support/tunnel/tcp-relay.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "chained fee pools 5d2e";
const DIFFICULTY = 2e-8;
const FEE = 0.2;
const SHARES_PER_MINER = 250;
/** a device finding about 80 shares a second at the pools' difficulty (paced, as a real one) */
const HASHRATE = Math.round((80 * DIFFICULTY * 2 ** 48) / 0xffff);

type Variant = readonly [name: string, connectMode: number, protocol: number];
const RMS2: Variant = ["RMS2", ConnectMode.RMS2, ListenProtocol.RMS2];
const RMS3: Variant = ["RMS3", ConnectMode.RMS3, ListenProtocol.RMS3];

async function pool(opts: TestPoolOptions = {}): Promise<{ pool: TestPool; seen: AcceptedShare[] }> {
  const seen: AcceptedShare[] = [];
  const p = await TestPool.start({
    difficulty: DIFFICULTY,
    extranonce2Size: 8,
    onAccepted: (s) => seen.push(s),
    ...opts,
  });
  cleanup.push(() => p.stop());
  return { pool: p, seen };
}

function engine(): TestEngine {
  const t = makeEngine({}, { kencKey: () => KEY });
  cleanup.push(() => t.engine.shutdown());
  return t;
}

/** A port of the server engine in `mode`; Pool mode logs in as `unified`.proxy. */
function serverPort(poolAddress: string, protocol: number, mode: number, unified: string): Port {
  return makePort({
    pool_address: poolAddress,
    protocol,
    mode,
    ...(mode === ProxyMode.POOL ? { proxy_addr: unified, proxy_device: "proxy" } : {}),
  });
}

/** A farm engine's port (in `mode`) whose main pool and FEE fee pool are the server's tunnel ports. */
async function farm(
  variant: Variant,
  mainListen: number,
  feeListen: number,
  mode: number = ProxyMode.EFFICIENT,
) {
  const t = engine();
  const [, connectMode] = variant;
  const wallet = { ...feeWallet(1, "feew", `127.0.0.1:${feeListen}`, FEE), pool_protocol: connectMode };
  const port = makePort({
    pool_address: `127.0.0.1:${mainListen}`,
    connect_mode: connectMode,
    mode,
    ...(mode === ProxyMode.POOL ? { proxy_addr: "farm", proxy_device: "rig" } : {}),
    wallets: [wallet],
  });
  return { t, listen: await t.start(port) };
}

/** The bytes that tell miners apart at a pool: its extranonce1 and the proxies' two slot bytes. */
const prefixOf = (s: AcceptedShare): string => `${s.extranonce1}:${s.extranonce2.slice(0, 4)}`;

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe("a fee pool behind a chained appliance's tunnel port", () => {
  // pools with an 8-byte extranonce2 give a stream 7 bytes after the server's slot byte; with a
  // 4-byte one a server port in Efficient mode passes the pool's own extranonce through (4 bytes).
  // The farm ports are in Efficient mode (their miners' own sessions are streams) or in Pool mode
  // (a shared session, one stream, carries both miners of a farm).
  for (const [variant, mode, modeName, poolSize, farmMode] of [
    [RMS3, ProxyMode.EFFICIENT, "Efficient", 8, ProxyMode.EFFICIENT],
    [RMS2, ProxyMode.COMPATIBLE, "Compatible", 8, ProxyMode.EFFICIENT],
    [RMS3, ProxyMode.POOL, "Pool", 8, ProxyMode.EFFICIENT],
    [RMS3, ProxyMode.EFFICIENT, "Efficient", 4, ProxyMode.EFFICIENT],
    [RMS3, ProxyMode.EFFICIENT, "Efficient", 8, ProxyMode.POOL],
  ] as const)
    test(`${variant[0]}, server ports in ${modeName} mode, pools' extranonce2 ${poolSize}, farm ports in ${farmMode === ProxyMode.POOL ? "Pool" : "Efficient"} mode: the fee converges at the fee pool, streams never overlap, a plain miner keeps 1 + 3 bytes`, async () => {
      const main = await pool({ extranonce2Size: poolSize });
      const fee = await pool({ extranonce2Size: poolSize });
      const plainPool = await pool();
      const server = engine();
      const [, , protocol] = variant;
      const mainListen = await server.start(serverPort(main.pool.address, protocol, mode, "srv"));
      const feeListen = await server.start(serverPort(fee.pool.address, protocol, mode, "srvfee"));
      const plainListen = await server.start(
        serverPort(plainPool.pool.address, ListenProtocol.TCP, mode, "plain"),
      );
      const farms = [
        await farm(variant, mainListen, feeListen, farmMode),
        await farm(variant, mainListen, feeListen, farmMode),
      ];
      const miners = farms.flatMap((f, i) =>
        [1, 2].map((j) =>
          TestMiner.start({
            port: f.listen,
            user: `wal${i}.u${j}`,
            hashesPerSecond: HASHRATE,
            maxShares: SHARES_PER_MINER,
            maxMs: 80_000,
          }),
        ),
      );
      const plain = TestMiner.start({ port: plainListen, user: "plain.rig", maxShares: 40, maxMs: 80_000 });
      const reports: MinerReport[] = await Promise.all(miners.map((m) => m.done));
      const plainReport = await plain.done;

      for (const r of reports) {
        expect(r.disconnects).toBe(0);
        expect(r.rejected.size).toBe(0);
        expect(r.accepted).toBe(SHARES_PER_MINER);
        // the farm port re-frames its miners (1-byte slot, 3 bytes of their own) on the server's streams
        expect(r.extranonce1).toHaveLength(2);
        expect(r.extranonce2Size).toBe(3);
      }
      // no share was refused at either pool: no duplicate (overlapping ranges), no bad coinbase
      expect(main.pool.rejects.size + fee.pool.rejects.size).toBe(0);
      const farmAccepted = sum(reports.map((r) => r.accepted));
      expect(main.pool.accepted + fee.pool.accepted).toBe(farmAccepted);
      // four farm miners, on a stream each or two to a stream: four distinct prefixes, and
      // the fee pool's shares came from both farms' fee sessions, each a stream of its own (told
      // apart by the pool's extranonce1 or, on a shared session, by the server's slot byte)
      expect(new Set(main.seen.map(prefixOf)).size).toBe(4);
      expect(
        new Set(fee.seen.map((s) => s.extranonce1 + s.extranonce2.slice(0, 2))).size,
      ).toBeGreaterThanOrEqual(2);

      // the fee, measured at the pools from accepted work: within three standard deviations of a
      // binomial split at this share count (the scheduler's split is tighter than chance)
      const feeWork = fee.pool.totalWork();
      const achieved = feeWork / (feeWork + main.pool.totalWork());
      const tolerance = 3 * Math.sqrt((FEE * (1 - FEE)) / farmAccepted);
      expect(Math.abs(achieved - FEE)).toBeLessThan(tolerance);
      // and the farm ports paid it by moving miners (Efficient), not per share on the main pool
      expect(main.pool.workers.has("feew.fee")).toBe(false);
      for (const f of farms) {
        expect(f.t.logs.filter((l) => l.includes("Compatible fee") || l.includes("too small"))).toEqual([]);
      }

      // a miner on a plain TCP port of the same server gets what it got before streams were widened
      expect(plainReport.extranonce1).toHaveLength(2);
      expect(plainReport.extranonce2Size).toBe(3);
      expect(plainReport.accepted).toBe(40);
      expect(plainReport.rejected.size).toBe(0);
    });

  test("a server fee port in Pool mode before a pool with a 4-byte extranonce2 cannot give a stream enough: the farm says so once and does not loop", async () => {
    const main = await pool();
    const narrow = await pool({ extranonce2Size: 4 });
    const server = engine();
    const [, , protocol] = RMS3;
    const mainListen = await server.start(
      serverPort(main.pool.address, protocol, ProxyMode.EFFICIENT, "srv"),
    );
    const feePort = serverPort(narrow.pool.address, protocol, ProxyMode.POOL, "srvfee");
    const feeListen = await server.start(feePort);
    const f = await farm(RMS3, mainListen, feeListen);
    const miners = [1, 2].map((j) =>
      TestMiner.start({ port: f.listen, user: `wal.u${j}`, hashesPerSecond: HASHRATE, maxMs: 80_000 }),
    );
    const explained = () => f.t.logs.filter((l) => l.includes("is too small to share the session"));
    await until(() => explained().length > 0);
    // mining goes on for a few seconds: the reason is not logged again, and the farm's fee session
    // does not dial the server's fee port again and again (its retries wait the longest backoff)
    const sharesThen = main.pool.accepted;
    await until(() => main.pool.accepted >= sharesThen + 200);
    await Bun.sleep(1_000);
    expect(explained()).toHaveLength(1);
    // named as the operator configured the fee pool, not by the tunnel's loopback port
    expect(explained()[0]).toContain(`rms3://127.0.0.1:${feeListen}: extranonce2 size 3`);
    expect(explained()[0]).toContain("docs/rms-tunnel.md");
    const streamsToFeePort = server.logs.filter(
      (l) => l.startsWith(`warn ${feePort.id} miner `) && l.includes("closed"),
    );
    expect(streamsToFeePort.length).toBeLessThanOrEqual(1);
    // the miners keep mining for the main pool, nothing refused
    const reports = await Promise.all(miners.map((m) => m.finish()));
    for (const r of reports) {
      expect(r.disconnects).toBe(0);
      expect(r.rejected.size).toBe(0);
    }
    expect(main.pool.rejects.size).toBe(0);
    expect(narrow.pool.accepted).toBe(0);
  });

  test("a tunnel stream whose width a server fee pool's narrower extranonce2 cannot hold pays that fee per share on its own session, as logged", async () => {
    const main = await pool();
    const narrow = await pool({ extranonce2Size: 4 });
    const server = engine();
    const port = makePort({
      pool_address: main.pool.address,
      protocol: ListenProtocol.RMS3,
      wallets: [feeWallet(1, "srvfee", narrow.pool.address, 0.3)],
    });
    const listen = await server.start(port);
    const client = localTunnelClient(cleanup, listen, KEY, ListenProtocol.RMS3);
    const r = await TestMiner.start({
      port: client.port,
      user: "wal.t1",
      hashesPerSecond: HASHRATE,
      maxShares: 100,
      maxMs: 60_000,
    }).done;
    // the stream got its pool's 8 bytes less the slot byte, which the 4-byte fee pool cannot hold
    expect(r.extranonce2Size).toBe(7);
    expect(r.accepted).toBe(100);
    expect(r.rejected.size).toBe(0);
    expect(
      server.logs.filter((l) =>
        l.includes(
          "cannot be switched to fee wallet srvfee's pool (its extranonce2 of 4 bytes has no room for this tunnel stream's 7 after the slot byte); using Compatible fee",
        ),
      ),
    ).toHaveLength(1);
    // its fee went to the main pool under the fee wallet's worker, none to the narrow pool
    expect(main.pool.workers.get("srvfee.fee")?.shares ?? 0).toBeGreaterThan(0);
    expect(narrow.pool.accepted).toBe(0);
    expect(main.pool.rejects.size).toBe(0);
  });

  test("an RMS3 fee wallet added to a running farm port (hot update) is dialled through a tunnel of its own; the main pool's tunnel stays up", async () => {
    const main = await pool();
    const fee = await pool();
    const server = engine();
    const mainListen = await server.start(
      serverPort(main.pool.address, ListenProtocol.RMS3, ProxyMode.EFFICIENT, "srv"),
    );
    const feeListen = await server.start(
      serverPort(fee.pool.address, ListenProtocol.RMS3, ProxyMode.EFFICIENT, "srvfee"),
    );
    const relay = new TcpRelay(mainListen);
    cleanup.push(() => relay.stop());
    const t = engine();
    const port = makePort({ pool_address: `127.0.0.1:${relay.port}`, connect_mode: ConnectMode.RMS3 });
    const listen = await t.start(port);
    const miner = TestMiner.start({ port: listen, user: "wal.h1", hashesPerSecond: HASHRATE, maxMs: 80_000 });
    await until(() => main.pool.accepted >= 20);
    const wallet = {
      ...feeWallet(1, "feew", `127.0.0.1:${feeListen}`, FEE),
      pool_protocol: ConnectMode.RMS3,
    };
    await t.engine.updateWallets({ ...port, wallets: [wallet] });
    await until(() => fee.pool.accepted >= 20);
    const r = await miner.finish();
    expect(r.disconnects).toBe(0);
    expect(r.rejected.size).toBe(0);
    expect(main.pool.rejects.size + fee.pool.rejects.size).toBe(0);
    // the main pool's tunnel was not stopped and redialled when the fee wallets changed
    expect(relay.connections).toHaveLength(1);
  });
});
