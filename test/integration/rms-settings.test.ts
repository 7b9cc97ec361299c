/**
 * The RMS settings through the whole appliance (docs/rms-tunnel.md, "Handshake: the RMS settings"):
 * an RMS3 port set up in the API with the password set in Settings → RMS; a farm client with the
 * password carries a hashing miner's shares, one with a wrong password or none is refused and says
 * why, and `pithead client` opens the ports of the mapping the server hands it, prints the
 * announcement and the port's remark, and shows up in the tunnel list with its name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TunnelView } from "../../appliance/domain/rms.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { startClientProcess } from "../support/kenc/client-process.ts";
import { until, untilAsync } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { TcpRelay } from "../support/tunnel/tcp-relay.ts";

setDefaultTimeout(60_000);

const KEY = "rms settings 51c0";
const RMS3 = 6;
const PASSWORD = "farm pass 9";

let t: TestAppliance;
let pool: TestPool;
/** the RMS3 port, and the local port the custom mapping hands for it */
const rmsPort = freePort();
const mappedLocal = freePort();

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

beforeAll(async () => {
  t = await startTestAppliance();
  pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  expect((await t.client.post("/api/kc/key", { k: KEY })).status).toBe(200);
  const rms = await t.client.post("/api/rms/config", {
    password: PASSWORD,
    port_mode: "custom",
    port_map: [{ server: rmsPort, local: mappedLocal }],
    client_name: "farm-east",
    announcement: "pool maintenance Sunday 02:00",
    other: "support: ops@example.net",
  });
  expect(rms.status).toBe(200);
  const port = await t.client.post<{ id: number }>(
    "/api/port/new",
    portBody({ port: rmsPort, name: "main", status: 1, protocol: RMS3, pool_address: pool.address }),
  );
  expect(port.status).toBe(200);
});

afterAll(async () => {
  await t.close();
  await pool.stop();
});

/** The connected tunnels (a stopped client's tunnel waits a minute for a resume, not connected). */
const tunnels = async () =>
  (await t.client.get<{ items: TunnelView[] }>("/api/rms/tunnels")).body.items.filter((x) => x.connected);

/** A tunnel client in this process with `password`, through a relay that counts its links, and what it logs. */
function farm(password?: string) {
  const relay = new TcpRelay(rmsPort);
  cleanup.push(() => relay.stop());
  const logs: string[] = [];
  const c = localTunnelClient(cleanup, relay.port, KEY, RMS3, {
    log: (m) => logs.push(m),
    retryMs: 50,
    ...(password === undefined ? {} : { password }),
  });
  return { c, logs, relay };
}

/** A miner of a refused tunnel: the client closes it, since no tunnel will carry it. */
async function refusedMiner(port: number) {
  const m = await RawClient.connect(port);
  cleanup.push(() => m.close());
  m.request(1, "mining.subscribe", ["rig/1.0"]);
  await until(() => m.closed);
  expect(m.lines).toEqual([]);
}

describe("RMS password", () => {
  test("the right password carries a hashing miner's shares", async () => {
    const { c, logs } = farm(PASSWORD);
    const r = await TestMiner.start({ port: c.port, user: "wal.pw1", maxShares: 10, maxMs: 30_000 }).done;
    expect(r.accepted).toBe(10);
    expect(pool.workers.get("wal.pw1")?.shares).toBe(10);
    expect(logs).toEqual([]);
  });

  test("the password reads back masked, and a save that sends the mask back keeps it", async () => {
    const shown = (await t.client.get<{ password: string; other: string }>("/api/rms/config")).body;
    expect(shown.password).toBe("********");
    const saved = await t.client.post<{ password: string }>("/api/rms/config", {
      ...shown,
      other: shown.other,
    });
    expect(saved.body.password).toBe("********");
    const { c, logs } = farm(PASSWORD);
    await until(() => c.links === 1);
    expect(logs).toEqual([]);
  });

  for (const [what, password, reason] of [
    ["a wrong password", "farm pass 8", "the RMS password is wrong"],
    ["no password", undefined, "no RMS password given: this server asks for one"],
  ] as const)
    test(`${what} is refused: the client says why, its miner cannot mine, the server logs it once`, async () => {
      const { c, logs, relay } = farm(password);
      await until(() => logs.length > 0);
      expect(logs[0]).toBe(
        `RMS3 127.0.0.1:${relay.port}: the server refuses the tunnel: ${reason} (logged once an hour per address and reason)`,
      );
      await refusedMiner(c.port);
      // the client tried again and again; each end wrote the refusal once
      await until(() => relay.connections.length >= 3);
      expect(c.links).toBe(0);
      expect(logs).toHaveLength(1);
      const log = (await t.client.get<{ message: string }[]>("/api/running/log")).body;
      expect(log.filter((l) => l.message.includes(`RMS3 127.0.0.1: ${reason}`))).toHaveLength(1);
      expect(await tunnels()).toEqual([]);
    });
});

describe("what the server hands the client", () => {
  test("`pithead client` opens the mapped port, prints the texts and the remark, and is listed by its name", async () => {
    const { port, out } = await startClientProcess(
      cleanup,
      [
        "--server",
        `127.0.0.1:${rmsPort}`,
        "--tunnel",
        "rms3",
        "--password",
        PASSWORD,
        "--name",
        "rack-7",
        "--bind",
        "127.0.0.1",
      ],
      KEY,
    );
    expect(port).toBe(mappedLocal);
    expect(out).toContain("announcement: pool maintenance Sunday 02:00\n");
    expect(out).toContain("other info: support: ops@example.net\n");
    expect(out).toContain("client name: rack-7 (--name)\n");
    expect(out).toContain(
      `listening on 127.0.0.1:${mappedLocal}, carrying miners to 127.0.0.1:${rmsPort} over one RMS3 tunnel`,
    );
    expect(out).toContain(`port "sha256-main" of the server's mapping`);
    // a miner logged in and idle holds its stream open while the list is read
    const idle = await RawClient.connect(port);
    cleanup.push(() => idle.close());
    idle.request(1, "mining.subscribe", ["rig/1.0"]);
    idle.request(2, "mining.authorize", ["wal.map0", "x"]);
    await untilAsync(async () => (await tunnels()).some((x) => x.streams === 1));
    const [listed] = await tunnels();
    expect(listed).toMatchObject({ name: "rack-7", address: "127.0.0.1", variant: "RMS3", port: rmsPort });
    const r = await TestMiner.start({ port, user: "wal.map1", maxShares: 5, maxMs: 30_000 }).done;
    expect(r.accepted).toBe(5);
    // what the streams carried crossed the link, compressed
    const [after] = await tunnels();
    expect(after?.streamIn).toBeGreaterThan(0);
    expect(after?.linkIn).toBeGreaterThan(0);
  });

  test("a client without --name goes by the settings' client name", async () => {
    farm(PASSWORD);
    await untilAsync(async () => (await tunnels()).length === 1);
    expect((await tunnels())[0]?.name).toBe("farm-east");
    expect((await t.client.get(`/api/rms/tunnels?port=70000`)).status).toBe(400);
    expect(
      (await t.client.get<{ items: unknown[] }>(`/api/rms/tunnels?port=${rmsPort + 1}`)).body.items,
    ).toEqual([]);
  });
});

describe("a changed setting applies without restarting the port", () => {
  test("a new password applies to the next handshake, a tunnel already up stays up; a new text reaches the next connect", async () => {
    const { c: up } = farm(PASSWORD);
    const miner = await RawClient.connect(up.port);
    cleanup.push(() => miner.close());
    miner.request(1, "mining.subscribe", ["rig/1.0"]);
    miner.request(2, "mining.authorize", ["wal.up1", "x"]);
    await untilAsync(async () => (await tunnels()).some((x) => x.streams === 1));
    const current = (await t.client.get<Record<string, unknown>>("/api/rms/config")).body;
    const changed = { ...current, password: "new pass", announcement: "new pool from Monday" };
    expect((await t.client.post("/api/rms/config", changed)).status).toBe(200);

    const { logs: old } = farm(PASSWORD);
    await until(() => old.length > 0);
    expect(old[0]).toContain("the server refuses the tunnel: the RMS password is wrong");
    const handed: string[] = [];
    const next = localTunnelClient(cleanup, rmsPort, KEY, RMS3, {
      password: "new pass",
      settings: (s) => handed.push(s.announcement),
    });
    await until(() => next.links === 1 && handed.length === 1);
    expect(handed).toEqual(["new pool from Monday"]);
    // the tunnel of before the change still carries its miner
    expect(up.links).toBe(1);
    expect(miner.closed).toBe(false);
    expect((await tunnels()).map((x) => x.streams).sort()).toEqual([0, 1]);
  });
});
