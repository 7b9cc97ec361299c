/**
 * Group control of pool-node ports with two real appliances on 127.0.0.1 (the member over https with
 * its certificate pinned) and a real litecoind in regtest: a port created on the activated node is
 * created on the member as a proxy port whose pool is that port, and a hashing miner on the member's
 * port mines on the node's pool (its shares in the node's ledger, its block on the chain). The
 * member's group-control token may create and delete such ports and nothing else of its ports.
 * Removing the node's port removes the member's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../../support/appliance.ts";
import { CHAIN_TEST_MS, cli, RegtestPair } from "../../support/poolnode/regtest.ts";
import { untilAsync } from "../../support/stratum/port-fixture.ts";
import { TestMiner } from "../../support/stratum/test-miner.ts";
import { servedFingerprint } from "../../support/tls-peer.ts";

let chain: RegtestPair;
let node: TestAppliance;
let member: TestAppliance;
let token: string;
let remoteId: number;
let nodePort: number;
let memberPortId: number;

interface Reply<T> {
  status: number;
  data: T;
  error?: { key: string; field?: string };
}
interface Pushed {
  remote: number;
  remark: string;
  id?: number;
  error?: string;
}
interface MemberPort {
  server: { id: number; port: number; pool_address: string; currency: string; limit_connections: number };
  wallets: { ratio: number }[];
}

/** A call on the member with its group-control token, as another instance makes it (or another token). */
async function asControl(method: string, path: string, body?: unknown, as = token) {
  const res = await fetch(`${member.app.url()}${path}`, {
    method,
    headers: { "x-api-token": as, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id?: number; error?: { key: string } } };
}

beforeAll(async () => {
  chain = await RegtestPair.start();
  [node, member] = await Promise.all([startTestAppliance(), startTestAppliance()]);
  token = (await member.client.get<{ token: string }>("/api/remote/token")).body.token;
  const address = member.app.httpsUrl();
  const registered = await node.client.post<{ id: number }>("/api/remote/new", {
    address,
    token,
    remark: "rack 1",
    fingerprint: await servedFingerprint(address),
  });
  expect(registered.status).toBe(200);
  remoteId = registered.body.id;
  const stratumPort = freePort();
  const saved = await node.client.post("/api/poolnode/project/apply", {
    coin: "LTC",
    rpc_url: chain.rpcUrl,
    rpc_cookie_file: chain.cookieFile,
    pool_address: await cli(chain.node, "getnewaddress"),
    difficulty: 2 ** -12,
    vardiff_seconds: 0,
    stratum_port: stratumPort,
  });
  expect(saved.status).toBe(200);
  expect((await node.client.post("/api/poolnode/project/active")).status).toBe(200);
});

afterAll(async () => {
  await Promise.all([node?.close(), member?.close()]);
  await chain?.stop();
});

test("the member's group-control token may create and delete pool-node ports only; the metrics token neither", async () => {
  const plain = await asControl("POST", "/api/port/new", portBody({ port: freePort() }));
  expect(plain.status).toBe(403);
  expect(plain.body.error?.key).toBe("lang.err.scope");
  const withFee = await asControl(
    "POST",
    "/api/port/new",
    portBody({ port: freePort(), category: "poolnode" }),
  );
  expect(withFee.status).toBe(403);
  expect(withFee.body.error?.key).toBe("lang.err.scope");
  // the metrics token has no part in it
  const metrics = (await member.client.get<{ token: string }>("/api/metrics/token")).body.token;
  const poolNodePort = portBody({ port: freePort(), category: "poolnode", wallets: [] });
  const byMetrics = await asControl("POST", "/api/port/new", poolNodePort, metrics);
  expect(byMetrics.status).toBe(403);
  // a port the operator made there is not the token's to delete
  const own = await member.client.post<{ id: number }>("/api/port/new", portBody({ port: freePort() }));
  expect((await asControl("DELETE", `/api/port/${own.body.id}`)).status).toBe(403);
  expect((await member.client.get(`/api/port/${own.body.id}`)).status).toBe(200);
  const audit = JSON.stringify((await member.client.get("/api/audit?limit=50")).body);
  expect(audit).toContain("the control token may not call this route");
});

test(
  "a port created on the node is created on the member, and the member's miner mines on the node's pool",
  async () => {
    nodePort = freePort();
    const memberPort = freePort();
    const created = await node.client.post<Reply<{ port: number; pushed: Pushed[] }>>(
      "/api/poolnode/port/new",
      {
        port: nodePort,
        name: "hall 3",
        proxy_addr: "127.0.0.1",
        member_port: memberPort,
        difficulty: 2 ** -12,
      },
    );
    expect(created.status).toBe(200);
    expect(created.body.data.pushed).toEqual([
      { remote: remoteId, remark: "rack 1", id: expect.any(Number) },
    ]);
    memberPortId = created.body.data.pushed[0]?.id as number;

    const made = (await member.client.get<MemberPort>(`/api/port/${memberPortId}`)).body;
    expect(made.server).toEqual(
      expect.objectContaining({
        port: memberPort,
        currency: "LTC",
        pool_address: `127.0.0.1:${nodePort}`,
        limit_connections: 60000,
      }),
    );
    expect(made.wallets.every((w) => w.ratio === 0)).toBe(true);

    const miner = await cli(chain.peer, "getnewaddress");
    const height = Number(await cli(chain.node, "getblockcount"));
    const rig = TestMiner.start({
      port: memberPort,
      user: `${miner}.rack1`,
      category: "scrypt",
      hashesPerSecond: 200,
    });
    await untilAsync(async () => Number(await cli(chain.node, "getblockcount")) > height);
    const report = await rig.finish();
    expect(report.accepted).toBeGreaterThan(0);
    // the node's ledger has the member's miner, through the node's extra port
    type Info = { workers: { worker: string; shares: number }[] };
    await untilAsync(
      async () =>
        (await node.client.get<Reply<Info>>(`/api/poolnode/address/info?address=${miner}`)).body.data.workers
          .length > 0,
    );
    const info = (await node.client.get<Reply<Info>>(`/api/poolnode/address/info?address=${miner}`)).body
      .data;
    expect(info.workers).toEqual([expect.objectContaining({ worker: `${miner}.rack1` })]);
    const block = JSON.parse(
      await cli(chain.node, "getblock", await cli(chain.node, "getblockhash", String(height + 1)), "2"),
    );
    expect(block.height).toBe(height + 1);
    const audit = JSON.stringify((await member.client.get("/api/audit?limit=50")).body);
    expect(audit).toContain(`port ${memberPort}`);
  },
  CHAIN_TEST_MS,
);

test("removing the node's port removes the member's", async () => {
  const removed = await node.client.del<Reply<{ removed: Pushed[] }>>(`/api/poolnode/extra/${nodePort}`);
  expect(removed.body.data.removed).toEqual([{ remote: remoteId, remark: "rack 1", id: memberPortId }]);
  expect((await member.client.get(`/api/port/${memberPortId}`)).status).toBe(404);
});
