import { expect, test } from "bun:test";
import { CONNECTION_LOG_SIZE } from "../../../appliance/stats/connection-log.ts";
import { DeviceRegistry } from "../../../appliance/stats/device-registry.ts";

test("a device's connects and disconnects are logged newest first, in its single view", () => {
  const r = new DeviceRegistry();
  const d = r.connect(1, "w", "rig1", "10.0.0.7", "sha256", 1_000);
  r.disconnect(d, 5_000);
  r.connect(1, "w", "rig1", "10.0.0.7", "sha256", 9_000);
  expect(d.view(10_000).connectionLog).toEqual([
    { at: 9_000, event: "connect" },
    { at: 5_000, event: "disconnect" },
    { at: 1_000, event: "connect" },
  ]);
});

test("the log keeps only the last events, so a flapping rig does not grow its record", () => {
  const r = new DeviceRegistry();
  const d = r.connect(1, "w", "rig1", "10.0.0.7", "sha256", 1);
  for (let i = 2; i < 100; i += 2) {
    r.disconnect(d, i);
    r.connect(1, "w", "rig1", "10.0.0.7", "sha256", i + 1);
  }
  const log = d.view(200).connectionLog ?? [];
  expect(log).toHaveLength(CONNECTION_LOG_SIZE);
  expect(log[0]).toEqual({ at: 99, event: "connect" });
  expect(log.at(-1)).toEqual({ at: 99 - CONNECTION_LOG_SIZE + 1, event: "disconnect" });
});
