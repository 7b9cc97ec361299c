/**
 * The fleet view of group control (issue 11): a central appliance lists a real remote appliance with a
 * hashing miner — hashrate, devices, ports and the alert rules set there — read by the background
 * refresh, which calls a few remotes at a time and gives each call a timeout, so remotes that accept
 * the connection and never answer are shown as not answering without holding up the others.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import type { FleetStat } from "../../ui/src/lib/remote-types.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";
import { servedFingerprint } from "../support/tls-peer.ts";

interface Listed {
  id: number;
  state: string;
  error_key?: string;
  stat?: FleetStat;
}

let central: TestAppliance;
let remote: TestAppliance;
let pool: TestPool;
let miner: TestMiner;
let port: number;

async function register(c: TestAppliance, address: string, token: string, remark: string): Promise<number> {
  const res = await c.client.post<{ id: number }>("/api/remote/new", {
    address,
    token,
    remark,
    fingerprint: await servedFingerprint(address),
  });
  expect(res.status).toBe(200);
  return res.body.id;
}

beforeAll(async () => {
  port = freePort();
  [central, remote, pool] = await Promise.all([
    startTestAppliance(),
    // the remote evaluates its alert rules often, so that a device going offline fires soon
    startTestAppliance(undefined, true, { alertTiming: { tickMs: 200, burstMs: 100 } }),
    // a share every ~8,600 hashes: tens a second, under the flood limit (500 lines/s) of the
    // remote's default timing even on a fast box, which would close the miner mid-test
    TestPool.start({ difficulty: 2e-6, extranonce2Size: 8 }),
  ]);
  expect(
    (await remote.client.post("/api/port/new", portBody({ port, status: 1, pool_address: pool.address })))
      .status,
  ).toBe(200);
  const rules = { device_offline: true, offline_grace_s: 1, hashrate_drop: 20, push_key: "" };
  expect((await remote.client.post("/api/warning/setting", rules)).status).toBe(200);
  miner = TestMiner.start({ port, user: "wal.rig1", maxMs: 110_000 });
});
afterAll(async () => {
  miner.stop();
  pool.stop();
  await Promise.all([central.close(), remote.close()]);
});

test("a remote's hashrate, online devices, ports and alert state are listed; a device going offline there shows as a firing alert", async () => {
  const token = (await remote.client.get<{ token: string }>("/api/remote/token")).body.token;
  const id = await register(central, remote.app.httpsUrl(), token, "rack 1");
  let row: Listed | undefined;
  for (let i = 0; i < 600; i++) {
    const rows = (await central.client.get<Listed[]>("/api/remote/list?refresh=1")).body;
    row = rows.find((r) => r.id === id);
    // the remote counts a share before its answer reaches the miner: wait for both
    if (row?.state === "online" && (row.stat?.hashrate?.[0]?.current ?? 0) > 0 && miner.report.accepted > 0)
      break;
    await Bun.sleep(100);
  }
  expect(miner.report.accepted).toBeGreaterThan(0);
  expect(row?.stat).toMatchObject({
    ports: { total: 1, active: 1 },
    online: 1,
    devices: { online: 1, offline: 0, total: 1 },
    alerts: { firing: 0, kinds: [], device_offline: true, hashrate_drop: 20 },
  });
  expect(row?.stat?.hashrate?.map((h) => h.coin)).toEqual(["BTC"]);
  expect(row?.stat?.hashrate?.[0]?.current).toBeGreaterThan(0);

  miner.stop();
  for (let i = 0; i < 600; i++) {
    const rows = (await central.client.get<Listed[]>("/api/remote/list?refresh=1")).body;
    row = rows.find((r) => r.id === id);
    if ((row?.stat?.alerts?.firing ?? 0) > 0) break;
    await Bun.sleep(100);
  }
  expect(row?.stat).toMatchObject({
    devices: { online: 0, offline: 1 },
    alerts: { firing: 1, kinds: ["device_offline"] },
  });
  // the remote's own alert history says the same
  const own = (await remote.client.get<{ items: { kind: string; state: string }[] }>("/api/warning/history"))
    .body;
  expect(own.items.filter((a) => a.state === "firing").map((a) => a.kind)).toEqual(["device_offline"]);
  expect((await central.client.del(`/api/remote/${id}`)).status).toBe(200);
});

test("remotes that never answer are shown as not answering, a few called at a time, beside one that answers", async () => {
  // a TLS listener that completes the handshake and then says nothing
  let open = 0;
  let most = 0;
  const silent = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    tls: makeSelfSigned("silent.example"),
    socket: {
      open() {
        open++;
        most = Math.max(most, open);
      },
      close() {
        open--;
      },
      data() {},
    },
  });
  try {
    const address = `https://127.0.0.1:${silent.port}`;
    const token = (await remote.client.get<{ token: string }>("/api/remote/token")).body.token;
    const good = await register(central, remote.app.httpsUrl(), token, "answers");
    const ids: number[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(await register(central, address, "silent-token-0123", `silent ${i}`));
    most = 0;
    const rows = (await central.client.get<Listed[]>("/api/remote/list?refresh=1")).body;
    for (const id of ids)
      expect(rows.find((r) => r.id === id)).toMatchObject({
        state: "offline",
        error_key: "lang.remote.err_fetch",
      });
    expect(rows.find((r) => r.id === good)?.state).toBe("online");
    // 8 silent remotes with two calls each would be 16 connections at once; 4 remotes at a time make 8
    // (2 more allowed for a closed connection the listener has not been told of yet)
    expect(most).toBeGreaterThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(10);
  } finally {
    silent.stop(true);
  }
});
