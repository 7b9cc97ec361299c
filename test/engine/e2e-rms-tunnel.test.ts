/**
 * The RMS tunnel end to end (docs/rms-tunnel.md): hashing miners → `pithead client --tunnel` → one
 * tunnel through a TCP relay (which counts and keeps the wire) → an RMS / RMS2 / RMS3 port → the
 * test pool, which verifies every share. What the tests say about the wire they read with their own
 * decoder (test/support/tunnel/tunnel-reader.ts).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { ListenProtocol, type Port } from "../../appliance/domain/port.ts";
import type { TunnelView } from "../../appliance/domain/rms.ts";
import { startClientProcess } from "../support/kenc/client-process.ts";
import { startKencPort } from "../support/kenc/kenc-port.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { TcpRelay } from "../support/tunnel/tcp-relay.ts";
import { readDownFrames } from "../support/tunnel/tunnel-reader.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "tunnel uplink 7f31";
const POOL_MODE = 2;

async function tunnelPort(protocol: number, wallets: Port["wallets"] = [], mode = 0) {
  const p = await startKencPort(cleanup, KEY, wallets, { protocol, mode });
  const relay = new TcpRelay(p.listen);
  cleanup.push(() => relay.stop());
  return { ...p, relay };
}

/**
 * The port's tunnels as the server sees them: one that is connected and never resumed came over one
 * link all along. Counted at the server rather than at the relay: the relay listens on a port number
 * the system hands out again, and a dialler left over from an earlier test file of this process
 * (bun runs them in one) can reach it, which once made a relay count three connections.
 */
async function linksSeen(t: { engine: { tunnels(): Promise<TunnelView[]> } }) {
  return (await t.engine.tunnels()).map((x) => ({ connected: x.connected, lastResume: x.lastResume }));
}

function client(protocol: number, serverPort: number, kencKey = KEY) {
  const logs: string[] = [];
  const c = localTunnelClient(cleanup, serverPort, kencKey, protocol, {
    log: (m) => logs.push(m),
    retryMs: 50,
  });
  return { c, logs };
}

describe("RMS tunnel", () => {
  for (const [name, protocol] of [
    ["RMS", ListenProtocol.RMS],
    ["RMS2", ListenProtocol.RMS2],
    ["RMS3", ListenProtocol.RMS3],
  ] as const)
    test(`${name}: four hashing miners over one tunnel to the pool, fee included`, async () => {
      const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
      cleanup.push(() => fee.stop());
      const { pool, t, port, relay } = await tunnelPort(protocol, [feeWallet(1, "feew", fee.address, 0.3)]);
      const { c, logs } = client(protocol, relay.port);
      const users = ["wal.r1", "wal.r2", "wal.r3", "wal.r4"];
      const miners = users.map((user) => TestMiner.start({ port: c.port, user, maxMs: 60_000 }));
      await until(() => t.engine.running(port.id)?.connected === 4);
      // the fee's share of the work reaches the fee pool while every miner keeps hashing to its own
      await until(
        () =>
          (fee.workers.get("feew.fee")?.shares ?? 0) >= 5 &&
          users.every((u) => (pool.workers.get(u)?.shares ?? 0) >= 20),
      );
      const reports = await Promise.all(miners.map((m) => m.finish()));
      for (const r of reports) {
        expect(r.accepted).toBeGreaterThan(20);
        expect(r.rejected.size).toBe(0);
        expect(r.disconnects).toBe(0);
      }
      expect(pool.rejects.size + fee.rejects.size).toBe(0);
      // all four miners crossed one connection
      expect(await linksSeen(t)).toEqual([{ connected: true, lastResume: null }]);
      expect(logs).toEqual([]);
    });

  test("the tunnel's link is cut mid-run: the client resumes it, no miner reconnects, shares keep being accepted", async () => {
    const { pool, t, port, relay } = await tunnelPort(ListenProtocol.RMS3);
    const { c, logs } = client(ListenProtocol.RMS3, relay.port);
    const users = ["wal.d1", "wal.d2", "wal.d3"];
    // the miners hash until the test has seen them through the cut (finish below)
    const miners = users.map((user) => TestMiner.start({ port: c.port, user, maxMs: 80_000 }));
    await until(() => users.every((u) => (pool.workers.get(u)?.shares ?? 0) >= 10));
    relay.cut();
    await until(() => relay.connections.length === 2 && c.connected);
    const before = new Map(users.map((u) => [u, pool.workers.get(u)?.shares ?? 0]));
    await until(() => users.every((u) => (pool.workers.get(u)?.shares ?? 0) >= (before.get(u) ?? 0) + 20));
    // the port never saw a miner leave: the streams survived the link, as its log says
    expect(t.engine.running(port.id)?.connected).toBe(3);
    expect(
      t.logs.filter((l) => l.includes("RMS3 tunnel from 127.0.0.1: resumed with its 3 streams")),
    ).toHaveLength(1);
    const reports = await Promise.all(miners.map((m) => m.finish()));
    for (const r of reports) {
      expect(r.accepted).toBeGreaterThan(30);
      expect(r.rejected.size).toBe(0);
      expect(r.disconnects).toBe(0);
      expect(r.reconnectRequests).toBe(0);
    }
    expect(c.links).toBe(2);
    expect(logs).toEqual([
      `RMS3 127.0.0.1:${relay.port}: the tunnel's link dropped; its 3 miners stay connected while it is resumed`,
      `RMS3 127.0.0.1:${relay.port}: tunnel resumed with its 3 miners`,
    ]);
    expect(pool.rejects.size).toBe(0);
  });

  for (const [name, protocol, broadcast] of [
    ["RMS3", ListenProtocol.RMS3, true],
    ["RMS2", ListenProtocol.RMS2, false],
  ] as const)
    test(`${name}: a job to 20 miners crosses the tunnel ${broadcast ? "once" : "20 times"}`, async () => {
      const { pool, t, port, relay } = await tunnelPort(protocol, [], POOL_MODE);
      const { c } = client(protocol, relay.port);
      const miners: RawClient[] = [];
      for (let i = 0; i < 20; i++) {
        const m = await RawClient.connect(c.port);
        m.request(1, "mining.subscribe", ["rig/1.0"]);
        m.request(2, "mining.authorize", [`wal.b${i}`, "x"]);
        miners.push(m);
      }
      cleanup.push(() => {
        for (const m of miners) m.close();
      });
      await until(() => t.engine.running(port.id)?.online === 20);
      await until(() => miners.every((m) => m.lines.some((l) => l.includes("mining.notify"))));
      const notifies = (m: RawClient) => m.lines.filter((l) => l.includes("mining.notify")).length;
      const seen = miners.map(notifies);
      const link = relay.connections[0];
      if (link === undefined) throw new Error("no tunnel link");
      const downBefore = relay.bytesDown;
      const framesBefore = (await readDownFrames(KEY, link.up, link.down)).length;
      pool.newJob();
      await until(() => miners.every((m, i) => notifies(m) > (seen[i] as number)));
      const line = miners[0]?.lines.filter((l) => l.includes("mining.notify")).at(-1) as string;
      const frames = (await readDownFrames(KEY, link.up, link.down)).slice(framesBefore);
      const carrying = frames.filter((f) => f.payload.includes(line));
      const wire = relay.bytesDown - downBefore;
      if (broadcast) {
        // one broadcast frame names all 20 streams; no stream got the job on its own
        expect(carrying).toHaveLength(1);
        expect(carrying[0]?.type).toBe(0x05);
        expect(carrying[0]?.streams).toHaveLength(20);
        // about one line's worth of bytes crossed, not twenty
        expect(wire).toBeLessThan(2 * line.length + 200);
      } else {
        expect(carrying).toHaveLength(20);
        expect(carrying.every((f) => f.type === 0x02)).toBe(true);
      }
    });

  test("the command: `pithead client --tunnel rms2` as a process carries two hashing miners over one tunnel", async () => {
    const { pool, relay, t } = await tunnelPort(ListenProtocol.RMS2);
    const { port: local, out } = await startClientProcess(
      cleanup,
      ["--server", `127.0.0.1:${relay.port}`, "--listen", "127.0.0.1:0", "--tunnel", "rms2"],
      KEY,
    );
    expect(out).toContain(`carrying miners to 127.0.0.1:${relay.port} over one RMS2 tunnel`);
    const reports = await Promise.all(
      ["wal.p1", "wal.p2"].map(
        (user) => TestMiner.start({ port: local, user, maxShares: 10, maxMs: 30_000 }).done,
      ),
    );
    for (const r of reports) expect(r.accepted).toBe(10);
    expect(pool.workers.get("wal.p1")?.shares).toBe(10);
    expect(await linksSeen(t)).toEqual([{ connected: true, lastResume: null }]);
  });

  test("the port sees each miner's own address, not the tunnel's", async () => {
    const { t, port, relay } = await tunnelPort(ListenProtocol.RMS);
    const { c } = client(ListenProtocol.RMS, relay.port);
    // 127.0.0.2 is this machine too; the tunnel itself comes from 127.0.0.1
    const miner = connect({ host: "127.0.0.1", port: c.port, localAddress: "127.0.0.2" });
    cleanup.push(() => {
      miner.destroy();
    });
    miner.write('{"id":1,"method":"mining.subscribe","params":["rig/1.0"]}\n');
    miner.write('{"id":2,"method":"mining.authorize","params":["wal.far","x"]}\n');
    await until(() => t.engine.running(port.id)?.online === 1);
    expect([...(t.engine.running(port.id)?.ips.keys() ?? [])]).toEqual(["127.0.0.2"]);
  });

  test("a client with another key is refused: its waiting miner is closed, both ends say why", async () => {
    const { t, port, relay } = await tunnelPort(ListenProtocol.RMS2);
    const { c, logs } = client(ListenProtocol.RMS2, relay.port, "not the port's key");
    const miner = await RawClient.connect(c.port);
    miner.request(1, "mining.subscribe", ["rig/1.0"]);
    await until(() => miner.closed);
    expect(miner.lines).toEqual([]);
    await until(() => logs.some((l) => l.includes("is this its KENC key")));
    await until(() => t.logs.some((l) => l.includes("the first frame does not authenticate")));
    // the client keeps trying; the port logs the refusal once per address and reason
    await until(() => relay.connections.length >= 3);
    expect(
      t.logs.filter((l) => l.includes("RMS2 127.0.0.1: the first frame does not authenticate")),
    ).toHaveLength(1);
    expect(t.engine.running(port.id)?.connected).toBe(0);
    expect(c.links).toBe(0);
  });

  test("a client of another variant is refused (RMS3 client, RMS2 port)", async () => {
    const { t, relay } = await tunnelPort(ListenProtocol.RMS2);
    const { c, logs } = client(ListenProtocol.RMS3, relay.port);
    await until(() => t.logs.some((l) => l.includes("the client asks for tunnel variant 6")));
    await until(() => logs.some((l) => l.includes("is this its KENC key and tunnel variant")));
    expect(c.links).toBe(0);
  });
});
