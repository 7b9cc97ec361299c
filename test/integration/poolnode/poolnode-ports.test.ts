/**
 * Pool-node ports on the real appliance with a real litecoind in regtest: an extra port is one more
 * stratum listener of the same pool — a hand miner on it gets its own start difficulty, its shares
 * are verified and credited in the same ledger and its block reaches the daemon. Port numbers the
 * appliance already uses (a proxy port, the pool's own, the web console) are refused; the extra
 * settings change the next connections (difficulty, connection cap); the port comes back after a
 * restart and goes away when removed. Changing them asks for the password again after 5 minutes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { PoolPortView as PortView } from "../../../appliance/poolnode/service.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { submitPlan } from "../../support/poolnode/pplns-plan.ts";
import { CHAIN_TEST_MS, cli, RegtestPair } from "../../support/poolnode/regtest.ts";
import { until, untilAsync } from "../../support/stratum/port-fixture.ts";
import { RawClient } from "../../support/stratum/raw-client.ts";

// the project's share target is just above regtest's network target, so a share that is not a block
// exists; an extra port's must be as easy or easier
const D = 2 ** -16;
const MINUTE = 60_000;
let chain: RegtestPair;
let t: TestAppliance;
let offset = 0;
const clock = { clock: () => Date.now() + offset };
let poolAddress: string;
let stratumPort: number;
let extraPort: number;
const miners: HandMiner[] = [];

interface Reply<T> {
  status: number;
  data: T;
  error?: { key: string; field?: string; detail?: string };
}

const get = async <T>(path: string): Promise<T> => (await t.client.get<Reply<T>>(path)).body.data;
const post = <T>(path: string, body: unknown) => t.client.post<Reply<T>>(path, body);
const newPort = (overrides: Record<string, unknown>) =>
  post<PortView>("/api/poolnode/port/new", {
    // spec §7's body as the console sends it
    name: "",
    currency: "VA-LTC",
    nc: 0,
    limit_connections: 60000,
    pool_address: "1",
    connect_mode: 0,
    pool_address2: null,
    connect_mode2: 1,
    mode: 0,
    pattern_addr: "",
    replace_addr: "",
    wallets: [],
    protocol: 0,
    category: "poolnode",
    proxy_addr: "",
    ...overrides,
  });

const connects = (port: number) =>
  RawClient.connect(port).then(
    (c) => {
      c.close();
      return true;
    },
    () => false,
  );

beforeAll(async () => {
  chain = await RegtestPair.start();
  poolAddress = await cli(chain.node, "getnewaddress");
  t = await startTestAppliance(undefined, true, clock);
  stratumPort = freePort();
  const saved = await t.client.post("/api/poolnode/project/apply", {
    coin: "LTC",
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: poolAddress,
    difficulty: D,
    vardiff_seconds: 0,
    stratum_port: stratumPort,
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  for (const m of miners) m.close();
  await t?.close();
  await chain?.stop();
});

test("not activated: the port calls answer status 4", async () => {
  expect((await newPort({ port: freePort() })).body.status).toBe(4);
  for (const path of ["/api/poolnode/ports", "/api/poolnode/endpoints", "/api/poolnode/extra/4000"])
    expect((await t.client.get<Reply<unknown>>(path)).body.status).toBe(4);
});

test("a port/new body is checked by field, and a port the appliance uses is refused", async () => {
  expect((await t.client.post("/api/poolnode/project/active")).status).toBe(200);
  await untilAsync(
    async () =>
      (await get<{ templates: { active: number } }>("/api/poolnode/project/info")).templates.active === 1,
  );
  for (const [overrides, field] of [
    [{ port: 70000 }, "port"],
    [{ port: freePort(), protocol: 1 }, "protocol"],
    [{ port: freePort(), currency: "VA-BTC" }, "currency"],
    [{ port: freePort(), difficulty: -1 }, "difficulty"],
    [{ port: freePort(), limit_connections: 0 }, "limit_connections"],
    [{ port: freePort(), pool_address: "2" }, "pool_address"],
  ] as const) {
    const refused = await newPort(overrides);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual(
      expect.objectContaining({ key: "lang.poolnode.err_port_config", field }),
    );
  }

  const proxyPort = freePort();
  expect((await t.client.post("/api/port/new", portBody({ port: proxyPort }))).status).toBe(200);
  const webPort = Number(new URL(t.client.base).port);
  for (const [port, detail] of [
    [proxyPort, "proxy port"],
    [stratumPort, "pool-node port"],
    [webPort, "web console"],
  ] as const) {
    const taken = await newPort({ port });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toEqual(
      expect.objectContaining({ key: "lang.poolnode.err_port_in_use", field: "port", detail }),
    );
  }
  // and the other way round: a proxy port may not take the pool's
  const proxyOnPool = await t.client.post<Reply<unknown>>("/api/port/new", portBody({ port: stratumPort }));
  expect(proxyOnPool.status).toBe(409);
  expect(proxyOnPool.body.error?.key).toBe("lang.proxy.err_poolnode_port");
  expect(await get<PortView[]>("/api/poolnode/ports")).toEqual([
    expect.objectContaining({ port: stratumPort, project: true, listening: true }),
  ]);
});

test(
  "an extra port serves the same pool: its own start difficulty, shares credited in the same ledger, its block on the chain",
  async () => {
    extraPort = freePort();
    const created = await newPort({ port: extraPort, name: "farm B", difficulty: D / 2 });
    expect(created.body).toEqual({
      status: 0,
      data: expect.objectContaining({
        port: extraPort,
        name: "farm B",
        difficulty: D / 2,
        limit_connections: 60000,
      }),
    });
    const address = await cli(chain.peer, "getnewaddress");
    const onExtra = await HandMiner.connect(extraPort, `${address}.b`);
    miners.push(onExtra);
    expect(onExtra.difficulties()).toEqual([D / 2]);
    const onProject = await HandMiner.connect(stratumPort, `${address}.a`);
    miners.push(onProject);
    expect(onProject.difficulties()).toEqual([D]);
    // both ports hand out the same work: one job book, distinct extranonce1s
    expect(onExtra.job.prevHash).toBe(onProject.job.prevHash);
    expect(onExtra.extranonce1).not.toBe(onProject.extranonce1);

    const ports = await get<PortView[]>("/api/poolnode/ports");
    expect(ports).toEqual([
      expect.objectContaining({ port: stratumPort, project: true, connections: 1 }),
      expect.objectContaining({
        port: extraPort,
        project: false,
        name: "farm B",
        listening: true,
        connections: 1,
      }),
    ]);

    const height = Number(await cli(chain.node, "getblockcount"));
    // two shares on the extra port, the second a block
    await submitPlan(new Map([[address, onExtra]]), [address, address], D / 2);
    await untilAsync(async () => Number(await cli(chain.node, "getblockcount")) > height);
    const found = await cli(chain.node, "getblockhash", String(height + 1));
    type Sync = { blocks: { hash: string; worker: string }[] };
    await untilAsync(async () =>
      (await get<Sync>("/api/poolnode/sync/info")).blocks.some((b) => b.hash === found),
    );
    expect((await get<Sync>("/api/poolnode/sync/info")).blocks).toContainEqual(
      expect.objectContaining({ hash: found, worker: `${address}.b` }),
    );
    // the ledger took both shares at the extra port's difficulty
    type Info = { workers: { worker: string; work: number; shares: number }[] };
    await untilAsync(async () =>
      (await get<Info>(`/api/poolnode/address/info?address=${address}`)).workers.some((w) => w.shares === 2),
    );
    expect((await get<Info>(`/api/poolnode/address/info?address=${address}`)).workers).toEqual([
      expect.objectContaining({ worker: `${address}.b`, work: D, shares: 2 }),
    ]);
  },
  CHAIN_TEST_MS,
);

test("extra/{port} reads and changes the port's settings; the next connections get them", async () => {
  expect(await get<PortView>(`/api/poolnode/extra/${extraPort}`)).toEqual(
    expect.objectContaining({ port: extraPort, name: "farm B", difficulty: D / 2, limit_connections: 60000 }),
  );
  const changed = await post<PortView>(`/api/poolnode/extra/${extraPort}`, {
    name: "farm B, hall 2",
    difficulty: D / 4,
    limit_connections: 2,
  });
  expect(changed.body.data).toEqual(
    expect.objectContaining({ name: "farm B, hall 2", difficulty: D / 4, limit_connections: 2 }),
  );
  const address = await cli(chain.peer, "getnewaddress");
  const second = await HandMiner.connect(extraPort, `${address}.c`);
  miners.push(second);
  expect(second.difficulties()).toEqual([D / 4]);
  // two miners on it now: the cap of 2 closes a third at once
  const third = await RawClient.connect(extraPort);
  await until(() => third.closed);
  expect(third.closed).toBe(true);

  const bad = await post(`/api/poolnode/extra/${extraPort}`, { difficulty: 0 });
  expect(bad.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_port_config", field: "difficulty" }),
  );
  const ownPort = await post(`/api/poolnode/extra/${stratumPort}`, { difficulty: D });
  expect(ownPort.status).toBe(409);
  expect(ownPort.body.error?.key).toBe("lang.poolnode.err_project_port");
  expect((await t.client.get(`/api/poolnode/extra/${freePort()}`)).status).toBe(404);
  expect(await get("/api/poolnode/endpoints")).toEqual([{ coin: "LTC", id: 1, name: "LTC daemon" }]);
  // nor may the project's stratum port move onto it
  const project = await get<Record<string, unknown>>("/api/poolnode/project/config");
  const moved = await post("/api/poolnode/project/config", {
    ...project,
    rpc_password: "",
    stratum_port: extraPort,
  });
  expect(moved.status).toBe(409);
  expect(moved.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_port_in_use", field: "stratum_port" }),
  );
  expect((await get<{ stratum_port: number }>("/api/poolnode/project/config")).stratum_port).toBe(
    stratumPort,
  );

  const audit = JSON.stringify((await t.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain(`pool-node port ${extraPort}`);
});

test("adding or changing a port asks for the password again once the session is 5 minutes old", async () => {
  offset += 6 * MINUTE;
  const stale = await newPort({ port: freePort() });
  expect(stale.status).toBe(403);
  expect(stale.body.error?.key).toBe("lang.err.reauth");
  const staleExtra = await post(`/api/poolnode/extra/${extraPort}`, { difficulty: D });
  expect(staleExtra.body.error?.key).toBe("lang.err.reauth");
  expect((await get<PortView>(`/api/poolnode/extra/${extraPort}`)).difficulty).toBe(D / 4);
  expect((await t.client.reauth(t.password)).status).toBe(200);
  expect((await post(`/api/poolnode/extra/${extraPort}`, { difficulty: D / 4 })).status).toBe(200);
});

test("the extra port listens again after a restart; removed, it closes and is forgotten", async () => {
  for (const m of miners.splice(0)) m.close();
  await t.close(true);
  t = await startTestAppliance(t.dataDir, true, clock);
  await untilAsync(async () =>
    (await get<PortView[]>("/api/poolnode/ports")).some((p) => p.port === extraPort && p.listening),
  );
  expect(await connects(extraPort)).toBe(true);
  const address = await cli(chain.peer, "getnewaddress");
  const miner = await HandMiner.connect(extraPort, `${address}.d`);
  miners.push(miner);
  expect(miner.difficulties()).toEqual([D / 4]);

  const removed = await t.client.del<Reply<{ port: number; removed: unknown[] }>>(
    `/api/poolnode/extra/${extraPort}`,
  );
  expect(removed.body).toEqual({ status: 0, data: { port: extraPort, removed: [] } });
  await until(() => miner.closed);
  expect(await connects(extraPort)).toBe(false);
  expect((await get<PortView[]>("/api/poolnode/ports")).map((p) => p.port)).toEqual([stratumPort]);
  expect((await t.client.del(`/api/poolnode/extra/${extraPort}`)).status).toBe(404);
  expect((await t.client.del(`/api/poolnode/extra/${stratumPort}`)).status).toBe(409);
  // the project's port still serves
  expect(await connects(stratumPort)).toBe(true);
});
