/**
 * Appliance chaining (spec §4 connect_mode RMS2 5 / RMS3 6): a farm engine's port whose pool is
 * another engine's RMS tunnel port. Hashing miners connect to the farm port; all of its pool
 * sessions cross one tunnel (through a relay that counts connections and can cut them) to the
 * server port, which serves them in front of the test pool.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { ConnectMode, ListenProtocol } from "../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../appliance/domain/rms.ts";
import { startKencPort } from "../support/kenc/kenc-port.ts";
import { feeWallet, makeEngine, makePort, until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { TcpRelay } from "../support/tunnel/tcp-relay.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "chained appliances 41c8";

for (const [name, connectMode, protocol] of [
  ["RMS2", ConnectMode.RMS2, ListenProtocol.RMS2],
  ["RMS3", ConnectMode.RMS3, ListenProtocol.RMS3],
] as const)
  test(`a farm port whose pool is an ${name} tunnel port: one tunnel, the fee, and a cut link resumed`, async () => {
    const server = await startKencPort(cleanup, KEY, [], { protocol });
    const relay = new TcpRelay(server.listen);
    cleanup.push(() => relay.stop());
    const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => fee.stop());
    const farm = makeEngine({}, { kencKey: () => KEY });
    cleanup.push(() => farm.engine.shutdown());
    const farmPort = makePort({
      pool_address: `127.0.0.1:${relay.port}`,
      connect_mode: connectMode,
      wallets: [feeWallet(1, "feew", fee.address, 0.3)],
    });
    const local = await farm.start(farmPort);
    const users = ["wal.u1", "wal.u2", "wal.u3"];
    const miners = users.map((user) => TestMiner.start({ port: local, user, maxMs: 80_000 }));
    const { pool } = server;
    const sharesOf = (u: string) => pool.workers.get(u)?.shares ?? 0;
    // the server port gives each tunnel stream its pool's extranonce2 less its slot byte (7 of 8), so
    // the farm port re-frames its miners and takes its fee by moving them to the fee pool (Efficient)
    const feeShares = () => fee.workers.get("feew.fee")?.shares ?? 0;
    await until(() => users.every((u) => sharesOf(u) >= 10) && feeShares() >= 3);
    // every pool session of the farm port went through one tunnel
    expect(relay.connections).toHaveLength(1);
    relay.cut();
    await until(() => relay.connections.length === 2);
    const before = new Map(users.map((u) => [u, sharesOf(u)]));
    await until(() => users.every((u) => sharesOf(u) >= (before.get(u) ?? 0) + 10));
    expect(relay.connections).toHaveLength(2);
    const reports = await Promise.all(miners.map((m) => m.finish()));
    for (const r of reports) {
      expect(r.disconnects).toBe(0);
      expect(r.rejected.size).toBe(0);
    }
    expect(pool.rejects.size + fee.rejects.size).toBe(0);
    expect(pool.workers.has("feew.fee")).toBe(false);
    expect(farm.logs.filter((l) => l.includes("Compatible fee"))).toEqual([]);
  });

test("the pool connection test reaches an RMS3 pool through a tunnel, and fails with another key", async () => {
  const server = await startKencPort(cleanup, KEY, [], { protocol: ListenProtocol.RMS3 });
  const farm = makeEngine({}, { kencKey: () => KEY });
  cleanup.push(() => farm.engine.shutdown());
  const address = `127.0.0.1:${server.listen}`;
  expect(await farm.engine.ping(address, ConnectMode.RMS3, 5_000, "sha256")).toBeGreaterThanOrEqual(0);
  // a plain stratum test of the same port is refused by its KENC link
  await expect(farm.engine.ping(address, ConnectMode.TCP, 2_000, "sha256")).rejects.toThrow();
  const stranger = makeEngine({}, { kencKey: () => "another key" });
  cleanup.push(() => stranger.engine.shutdown());
  await expect(stranger.engine.ping(address, ConnectMode.RMS3, 2_000, "sha256")).rejects.toThrow();
});

const PASSWORD = "server asks 7f3a";

for (const [what, given, reason] of [
  ["a wrong RMS password", "server asks 0000", "the RMS password is wrong"],
  ["no RMS password", "", "no RMS password given: this server asks for one"],
] as const)
  test(`a server port that asks for an RMS password refuses a farm port with ${what}, which mines once given the right one`, async () => {
    const server = await startKencPort(
      cleanup,
      KEY,
      [],
      { protocol: ListenProtocol.RMS3 },
      { rms: () => ({ ...RMS_DEFAULTS, password: PASSWORD }) },
    );
    let upstream: string = given;
    const farm = makeEngine({}, { kencKey: () => KEY, rmsUpstreamPassword: () => upstream });
    cleanup.push(() => farm.engine.shutdown());
    const address = `127.0.0.1:${server.listen}`;
    const local = await farm.start(makePort({ pool_address: address, connect_mode: ConnectMode.RMS3 }));
    // the farm port's log says why its pool cannot be reached
    const refusal = `pool tunnel: RMS3 ${address}: the server refuses the tunnel: ${reason}`;
    await until(() => farm.logs.some((l) => l.includes(refusal)));
    await expect(farm.engine.ping(address, ConnectMode.RMS3, 2_000, "sha256")).rejects.toThrow();
    expect(server.pool.workers.size).toBe(0);
    // the operator sets the right password: the tunnel's next dial presents it, the port is not restarted
    upstream = PASSWORD;
    const r = await TestMiner.start({ port: local, user: "wal.pw1", maxShares: 10, maxMs: 30_000 }).done;
    expect(r.accepted).toBe(10);
    expect(server.pool.workers.get("wal.pw1")?.shares).toBe(10);
    expect(await farm.engine.ping(address, ConnectMode.RMS3, 5_000, "sha256")).toBeGreaterThanOrEqual(0);
  });
