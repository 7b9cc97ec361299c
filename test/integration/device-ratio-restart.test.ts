/**
 * A device's own fee ratio survives an appliance restart: set through the API on a hashing miner,
 * the appliance stops and starts again on the same data directory, another miner connects first (so
 * the registry's per-run device ids no longer fall where they did), and the same miner reconnects.
 * The device view shows its ratio again and the test pools' tallies show the work split by it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DeviceView } from "../../appliance/domain/engine.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(120_000);

const DIFFICULTY = 2e-8;
const PORT_RATIO = 0.05;
const DEVICE_RATIO = 0.5;
const SHARES = 600;
/** hashes per second of a device finding `sharesPerSecond` shares at the pools' difficulty */
const hashrate = (sharesPerSecond: number) => Math.round((sharesPerSecond * DIFFICULTY * 2 ** 48) / 0xffff);

let t: TestAppliance | undefined;
let main: TestPool;
let fee: TestPool;
const miners: TestMiner[] = [];

beforeAll(async () => {
  main = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
  fee = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
});

afterAll(async () => {
  for (const m of miners) m.stop();
  await t?.close();
  main?.stop();
  fee?.stop();
});

const mine = (port: number, user: string, maxShares: number) => {
  const m = TestMiner.start({ port, user, hashesPerSecond: hashrate(100), maxShares, maxMs: 60_000 });
  miners.push(m);
  return m;
};

async function devices(app: TestAppliance, portId: number): Promise<DeviceView[]> {
  const r = await app.client.get<{ list?: DeviceView[] } | DeviceView[]>(`/api/port/${portId}/workers`);
  return Array.isArray(r.body) ? r.body : (r.body.list ?? []);
}

async function device(app: TestAppliance, portId: number, wallet: string): Promise<DeviceView> {
  for (;;) {
    const d = (await devices(app, portId)).find((v) => v.wallet === wallet && v.online);
    if (d !== undefined) return d;
    await Bun.sleep(20);
  }
}

describe("device ratio override", () => {
  test("reaches the same wallet and worker after a restart, not the device that took its old id", async () => {
    t = await startTestAppliance();
    const created = await t.client.post<{ id: number }>(
      "/api/port/new",
      portBody({
        port: freePort(),
        pool_address: main.address,
        status: 1,
        wallets: [
          { addr: "feeaddr", device: "fee", pool_address: fee.address, pool_protocol: 0, ratio: PORT_RATIO },
        ],
      }),
    );
    expect(created.status).toBe(200);
    const portId = created.body.id;
    const { body: item } = await t.client.get<{ server: { port: number }; wallets: { id: number }[] }>(
      `/api/port/${portId}`,
    );
    const listen = item.server.port;

    // First run: the miner is the port's first device; its own ratio is set through the API.
    const vip = mine(listen, "vip.rig", 50);
    const first = await device(t, portId, "vip");
    const set = await t.client.post(`/api/port/${portId}/worker/ratio`, {
      worker: first.id,
      r: DEVICE_RATIO,
    });
    expect(set.status).toBe(200);
    await vip.done;
    const dataDir = t.dataDir;
    await t.close(true);

    // Second run on the same data: another miner connects first and takes the port's first device id.
    t = await startTestAppliance(dataDir);
    await mine(listen, "plain.rig", 20).done;
    const plain = await devices(t, portId);
    expect(plain.map((d) => d.id)).toEqual([first.id]);
    const mainBefore = main.totalWork();
    const feeBefore = fee.workerWork("feeaddr.fee");
    const again = mine(listen, "vip.rig", SHARES);
    const back = await device(t, portId, "vip");
    expect(back.id).not.toBe(first.id);
    expect(back.feeRatio).toBeCloseTo(DEVICE_RATIO, 9);
    const report = await again.done;
    expect(report.accepted).toBe(SHARES);

    const views = await devices(t, portId);
    expect(views.find((d) => d.wallet === "plain")?.feeRatio).toBeCloseTo(PORT_RATIO, 9);
    expect(views.find((d) => d.wallet === "vip")?.feeRatio).toBeCloseTo(DEVICE_RATIO, 9);
    const source = await t.client.get<{ ratio: number; source: string }>(
      `/api/wallet/${item.wallets[0]?.id}/worker/${back.id}/ratio`,
    );
    expect(source.body).toMatchObject({ ratio: DEVICE_RATIO, source: "device" });

    // The pools' tallies of the second run: the device's work split at its own ratio, not the port's.
    const toFee = fee.workerWork("feeaddr.fee") - feeBefore;
    const toMain = main.totalWork() - mainBefore;
    const achieved = toFee / (toFee + toMain);
    expect(achieved).toBeGreaterThan(DEVICE_RATIO - 0.1);
    expect(achieved).toBeLessThan(DEVICE_RATIO + 0.1);
  });
});
