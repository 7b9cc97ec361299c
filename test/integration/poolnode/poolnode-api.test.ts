/**
 * The first /api/poolnode/* calls on the real appliance with a real litecoind in regtest: status 4
 * until activated, the project stored with zod's checks and the daemon password never read back or
 * audited in clear, activation refused while the daemon refuses the pool address, then a running
 * pool on the project's stratum port that a hashing miner extends the chain through, sync/info
 * against litecoin-cli, the node running again after a restart, and deactivation closing the port.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { cli, RegtestPair, RPC_PASSWORD, RPC_USER } from "../../support/poolnode/regtest.ts";
import { until, untilAsync } from "../../support/stratum/port-fixture.ts";
import { RawClient } from "../../support/stratum/raw-client.ts";
import { TestMiner } from "../../support/stratum/test-miner.ts";

const START = 2 ** -12;
let chain: RegtestPair;
let t: TestAppliance;
let poolAddress: string;
const stratumPort = freePort();

interface Reply<T = Record<string, unknown>> {
  status?: number;
  data?: T;
  error?: { key: string; field?: string };
}

function project(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    coin: "LTC",
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: poolAddress,
    // one scrypt hash in 16 is a share (every one a regtest block), so vardiff has shares to go by
    difficulty: START,
    vardiff_seconds: 1,
    stratum_port: stratumPort,
    ...overrides,
  };
}

beforeAll(async () => {
  chain = await RegtestPair.start();
  poolAddress = await cli(chain.node, "getnewaddress");
  t = await startTestAppliance();
});

afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

test("not activated: status 4 everywhere", async () => {
  for (const path of [
    "/api/poolnode/project/info",
    "/api/poolnode/project/config",
    "/api/poolnode/sync/info",
    "/api/poolnode/pool/assets",
  ])
    expect((await t.client.get<Reply>(path)).body.status).toBe(4);
  expect((await t.client.post<Reply>("/api/poolnode/project/active")).body.status).toBe(4);
});

test("the project is checked, stored without the password and still not activated", async () => {
  // the session logged in just now, so these password-guarded calls need no re-authentication
  const noCredentials = await t.client.post<Reply>(
    "/api/poolnode/project/apply",
    project({ rpc_cookie_file: "" }),
  );
  expect(noCredentials.status).toBe(400);
  expect(noCredentials.body.error?.key).toBe("lang.poolnode.err_config");
  const badPort = await t.client.post<Reply>("/api/poolnode/project/apply", project({ stratum_port: 70000 }));
  expect(badPort.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_config", field: "stratum_port" }),
  );

  const withPassword = project({ rpc_cookie_file: "", rpc_user: RPC_USER, rpc_password: RPC_PASSWORD });
  const saved = await t.client.post<Reply>("/api/poolnode/project/apply", withPassword);
  expect(saved.status).toBe(200);
  expect(saved.body.data).toEqual(
    expect.objectContaining({
      rpc_user: RPC_USER,
      rpc_password_set: true,
      active: false,
      coin: "LTC",
      vardiff_seconds: 1,
    }),
  );
  const config = await t.client.get("/api/poolnode/project/config");
  expect(JSON.stringify(config.body)).not.toContain(RPC_PASSWORD);
  const audit = await t.client.get("/api/audit?limit=50");
  expect(JSON.stringify(audit.body)).toContain("pool-node project");
  expect(JSON.stringify(audit.body)).not.toContain(RPC_PASSWORD);
  expect((await t.client.get<Reply>("/api/poolnode/project/info")).body.status).toBe(4);
});

test("activation is refused while the daemon refuses the pool address", async () => {
  // an empty password keeps the stored one
  const wrong = project({ rpc_cookie_file: "", rpc_user: RPC_USER, pool_address: "not-an-address" });
  expect((await t.client.post<Reply>("/api/poolnode/project/config", wrong)).status).toBe(200);
  const refused = await t.client.post<Reply>("/api/poolnode/project/active");
  expect(refused.status).toBe(502);
  expect(refused.body.error?.key).toBe("lang.poolnode.err_daemon");
  expect((await t.client.get<Reply>("/api/poolnode/project/info")).body.status).toBe(4);
});

test("activated, the pool runs on the project's port: sync info from the daemon, a miner extends the chain", async () => {
  const right = project({ rpc_cookie_file: "", rpc_user: RPC_USER });
  expect((await t.client.post<Reply>("/api/poolnode/project/config", right)).status).toBe(200);
  const activated = await t.client.post<Reply<{ state: string }>>("/api/poolnode/project/active");
  expect(activated.body).toEqual({ status: 0, data: { state: "running" } });

  type Info = { state: string; projectPort: number; enable: boolean; templates: { active: number } };
  let info: Reply<Info> = {};
  await untilAsync(async () => {
    info = (await t.client.get<Reply<Info>>("/api/poolnode/project/info")).body;
    return info.data?.templates.active === 1;
  });
  expect(info.status).toBe(0);
  expect(info.data).toEqual(
    expect.objectContaining({ state: "running", projectPort: stratumPort, enable: true }),
  );

  type Sync = { chain: { blocks: number; chain: string }; template: { height: number } };
  const sync = (await t.client.get<Reply<Sync>>("/api/poolnode/sync/info")).body.data;
  const height = Number(await cli(chain.node, "getblockcount"));
  expect(sync?.chain).toEqual(expect.objectContaining({ chain: "regtest", blocks: height }));
  expect(sync?.template.height).toBe(height + 1);

  const miner = TestMiner.start({
    port: stratumPort,
    user: poolAddress,
    category: "scrypt",
    hashesPerSecond: 200,
  });
  await until(() => miner.answered >= 20);
  const report = await miner.finish();
  expect(report.authorized).toBe(true);
  expect(report.accepted).toBeGreaterThan(0);
  expect(Number(await cli(chain.node, "getblockcount"))).toBeGreaterThan(height);
  // the project's vardiff raised the difficulty the miner was credited at
  expect(report.acceptedWork / report.accepted).toBeGreaterThan(START);
  // the blocks the pool found, as sync/info lists them: the daemon's block at that height among them
  type Found = { hash: string; height: number; worker: string; status: string };
  const found = (
    await t.client.get<Reply<{ blocks: Found[]; blocks_found: number }>>("/api/poolnode/sync/info")
  ).body.data;
  const first = await cli(chain.node, "getblockhash", String(height + 1));
  expect(found?.blocks).toContainEqual(
    expect.objectContaining({ hash: first, height: height + 1, worker: poolAddress }),
  );
  expect(found?.blocks_found).toBeGreaterThanOrEqual(found?.blocks.length ?? 0);
  const coinbase = JSON.parse(
    await cli(chain.node, "getblock", await cli(chain.node, "getblockhash", String(height + 1)), "2"),
  ).tx[0].vout[0].scriptPubKey.addresses;
  expect(coinbase).toEqual([poolAddress]);
});

test("ping/1: the daemon's round trip and sync state, as litecoin-cli sees the chain", async () => {
  type Ping = { id: number; ms: number; chain: string; blocks: number; synced: boolean };
  const ping = await t.client.get<Reply<Ping>>("/api/poolnode/ping/1");
  const height = Number(await cli(chain.node, "getblockcount"));
  expect(ping.body.status).toBe(0);
  expect(ping.body.data).toEqual(
    expect.objectContaining({ id: 1, chain: "regtest", blocks: height, synced: true }),
  );
  expect(ping.body.data?.ms).toBeGreaterThan(0);
  expect(ping.body.data?.ms).toBeLessThan(5000);
  expect((await t.client.get("/api/poolnode/ping/2")).status).toBe(404);
});

test("update/address: checked by the daemon, audited, and the next block pays the new address", async () => {
  const refused = await t.client.post<Reply>("/api/poolnode/update/address", { address: "nowhere" });
  expect(refused.status).toBe(400);
  expect(refused.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_address", field: "address" }),
  );
  const next = await cli(chain.node, "getnewaddress");
  const updated = await t.client.post<Reply>("/api/poolnode/update/address", { address: next });
  expect(updated.body).toEqual({ status: 0, data: { pool_address: next } });
  expect((await t.client.get<Reply>("/api/poolnode/project/config")).body.data).toEqual(
    expect.objectContaining({ pool_address: next }),
  );
  const audit = JSON.stringify((await t.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain("pool-node address");
  expect(audit).toContain(next);

  // no restart: the pool keeps running and its next job pays the new address
  const height = Number(await cli(chain.node, "getblockcount"));
  const miner = TestMiner.start({
    port: stratumPort,
    user: poolAddress,
    category: "scrypt",
    hashesPerSecond: 200,
  });
  await untilAsync(async () => Number(await cli(chain.node, "getblockcount")) > height);
  await miner.finish();
  const block = JSON.parse(
    await cli(chain.node, "getblock", await cli(chain.node, "getblockhash", String(height + 1)), "2"),
  );
  expect(block.tx[0].vout[0].scriptPubKey.addresses).toEqual([next]);
});

test("pool/asset*: the node's one coin; choosing another is refused, not ignored", async () => {
  const ltc = { coin: "LTC", algorithm: "scrypt", endpoint: 1, state: "running", selected: true };
  expect((await t.client.get<Reply<unknown>>("/api/poolnode/pool/assets")).body.data).toEqual([ltc]);
  expect((await t.client.get<Reply>("/api/poolnode/pool/asset/selected")).body.data).toEqual(ltc);
  expect((await t.client.get<Reply>("/api/poolnode/pool/asset/status")).body.data).toEqual(ltc);
  const other = await t.client.post<Reply & { error: { detail?: string } }>("/api/poolnode/pool/asset", {
    coin: "btc",
  });
  expect(other.status).toBe(400);
  expect(other.body.error).toEqual(
    expect.objectContaining({ key: "lang.poolnode.err_asset", field: "coin" }),
  );
  expect(other.body.error.detail).toBe("LTC");
  expect((await t.client.post<Reply>("/api/poolnode/pool/asset", { coin: "ltc" })).body.data).toEqual(ltc);
  expect((await t.client.post<Reply>("/api/poolnode/pool/asset/reset")).body.data).toEqual(ltc);
});

test("the vendor-account calls are refused with the reason: the node has no vendor account", async () => {
  const calls: [string, string][] = [
    ["GET", "/api/poolnode/captcha/image"],
    ["POST", "/api/poolnode/captcha/check"],
    ["POST", "/api/poolnode/user/login"],
    ["POST", "/api/poolnode/send/mail"],
    ["POST", "/api/poolnode/send/user/mail"],
  ];
  for (const [method, path] of calls) {
    const res = method === "GET" ? await t.client.get<Reply>(path) : await t.client.post<Reply>(path, {});
    expect([path, res.status, res.body.error?.key]).toEqual([path, 400, "lang.poolnode.err_no_vendor"]);
  }
});

test("an activated node runs again after a restart; deactivating closes its port", async () => {
  await t.close(true);
  t = await startTestAppliance(t.dataDir);
  const info = (await t.client.get<Reply<{ state: string }>>("/api/poolnode/project/info")).body;
  expect(info.data?.state).toBe("running");
  (await RawClient.connect(stratumPort)).close();

  const off = await t.client.post<Reply<{ state: string }>>("/api/poolnode/project/unactive");
  expect(off.body.data?.state).toBe("not_activated");
  expect((await t.client.get<Reply>("/api/poolnode/project/info")).body.status).toBe(4);
  expect(
    await RawClient.connect(stratumPort).then(
      (c) => {
        c.close();
        return "connected";
      },
      () => "refused",
    ),
  ).toBe("refused");
});
