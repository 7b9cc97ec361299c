import { expect, test } from "bun:test";
import type { DeviceView } from "../../../appliance/domain/engine.ts";
import { pageDevices } from "../../../appliance/stats/device-page.ts";
import { deviceQuery } from "../../../appliance/web/api/device-page.ts";

const devicePage = (devices: DeviceView[], params: URLSearchParams) =>
  pageDevices(devices, deviceQuery(params));

const zero = { current: 0, m15: 0, h4: 0, h24: 0 };
function device(name: string, wallet: string, m15: number): DeviceView {
  return {
    id: `${wallet}/${name}`,
    portId: 1,
    wallet,
    name,
    ip: "127.0.0.1",
    upstreamUser: `${wallet}.${name}`,
    agent: "cgminer",
    algorithm: "sha256",
    online: true,
    valid: 0,
    invalid: 0,
    stale: 0,
    hashrate: { ...zero, m15 },
    pumped: zero,
    localHashrate: 0,
    difficulty: 1,
    reconnects: 0,
    disconnects: 0,
    feeRatio: 0,
    feeAchieved: 0,
    latencyMs: 0,
    loginAt: 0,
    lastSubmitAt: 0,
    lastJobAt: 0,
    concurrency: 1,
    mining: "main",
  };
}

const devices = () => [device("rig-b", "w1", 5), device("rig-a", "w2", 9), device("s19", "w1", 1)];

test("without limit the whole list is answered as before", () => {
  expect(devicePage(devices(), new URLSearchParams())).toHaveLength(3);
});

test("filters by name or wallet, sorts, and slices", () => {
  const page = devicePage(devices(), new URLSearchParams("limit=1&offset=1&sort=m15&order=desc"));
  expect(page).toEqual({ total: 3, items: [expect.objectContaining({ name: "rig-b" })] });
  const byWallet = devicePage(devices(), new URLSearchParams("limit=10&q=W1&sort=name"));
  expect(byWallet).toEqual({
    total: 2,
    items: [expect.objectContaining({ name: "rig-b" }), expect.objectContaining({ name: "s19" })],
  });
});

test("list rows leave the connection log out; it is the device's own answer that carries it", () => {
  const logged = devices().map((d) => ({ ...d, connectionLog: [{ at: 1, event: "connect" as const }] }));
  // what the answer carries: the rows as JSON
  const wire = (v: unknown) => JSON.parse(JSON.stringify(v));
  const whole: DeviceView[] = wire(devicePage(logged, new URLSearchParams()));
  const page: { items: DeviceView[] } = wire(devicePage(logged, new URLSearchParams("limit=2")));
  for (const row of [...whole, ...page.items]) expect(row).not.toHaveProperty("connectionLog");
  expect(whole.map((d) => d.name)).toEqual(["rig-b", "rig-a", "s19"]);
  expect(page.items).toHaveLength(2);
});
