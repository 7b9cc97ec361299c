import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import type { SeriesSample } from "../../appliance/domain/engine.ts";
import { DeviceRegistry } from "../../appliance/stats/device-registry.ts";
import { HashrateWindow, ringArena } from "../../appliance/stats/hashrate-window.ts";
import { SeriesStore } from "../../appliance/stats/series-store.ts";
import { migrate } from "../../appliance/store/db.ts";

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

describe("HashrateWindow", () => {
  test("rates over each window, divided by the time observed while young", () => {
    const w = new HashrateWindow(T0);
    for (let s = 0; s < 600; s++) w.add(1000, T0 + s * 1000); // 1000 H/s for ten minutes
    const r = w.rates(T0 + 600_000);
    expect(r.current).toBeGreaterThan(900);
    expect(r.current).toBeLessThan(1100);
    expect(r.m15).toBeGreaterThan(900);
    expect(r.m15).toBeLessThan(1100);
    expect(r.h24).toBeGreaterThan(900);
    // an hour of silence: current drops to zero, 4 h average falls
    const later = w.rates(T0 + 4_200_000);
    expect(later.current).toBe(0);
    expect(later.h4).toBeLessThan(200);
  });

  test("a released window's buckets go to the next window empty", () => {
    const base = ringArena.inUse;
    const old = Array.from({ length: 3000 }, () => new HashrateWindow(T0));
    for (const w of old) w.add(5e9, T0 + 1000);
    expect(ringArena.inUse).toBe(base + 3000);
    for (const w of old) w.release();
    expect(ringArena.inUse).toBe(base);
    // released: work is dropped and nothing is taken for it
    old[0]?.add(1, T0 + 2000);
    expect(old[0]?.rates(T0 + 2000).current).toBe(0);
    expect(ringArena.inUse).toBe(base);
    const fresh = Array.from({ length: 3000 }, () => new HashrateWindow(T0));
    for (const w of fresh) w.add(1000, T0 + 1000);
    expect(ringArena.inUse).toBe(base + 3000);
    for (const w of fresh) expect(w.rates(T0 + 60_000).h24).toBe(1000 / 60);
    for (const w of fresh) w.release();
  });
});

describe("DeviceRegistry", () => {
  test("counts shares and reconnects per device and flushes closed minutes to a sink", () => {
    const reg = new DeviceRegistry();
    const d = reg.connect(1, "w", "r", "10.0.0.1", "sha256", T0);
    reg.result(d, "valid", "main", 100, 2, true, T0 + 1000);
    reg.result(d, "valid", "fee|1", 50, 4, true, T0 + 2000);
    reg.result(d, "stale", "main", 0, 1, true, T0 + 3000);
    reg.disconnect(d, T0 + 4000);
    const again = reg.connect(1, "w", "r", "10.0.0.1", "sha256", T0 + 5000);
    expect(again).toBe(d);
    const v = d.view(T0 + 6000);
    expect([v.valid, v.stale, v.invalid, v.reconnects, v.disconnects, v.online]).toEqual([
      2,
      1,
      0,
      1,
      1,
      true,
    ]);
    expect(v.feeAchieved).toBeCloseTo(1 / 3, 9);
    const samples: SeriesSample[] = [];
    reg.tick(T0 + 60_000, { add: (s) => samples.push(s), addTarget: () => {} });
    expect(
      samples.map((s) => [s.device === "" ? "port" : "device", s.work, s.feeWork, s.valid, s.stale]),
    ).toEqual([
      ["device", 150, 50, 2, 1],
      ["port", 150, 50, 2, 1],
    ]);
  });
});

describe("DeviceRegistry under churn", () => {
  test("a port keeps at most 1,000 offline devices, or as many as it has online; the longest offline go first", () => {
    const reg = new DeviceRegistry();
    // 1,500 miners that each came once under a name of their own and left, a second apart
    for (let i = 0; i < 1500; i++) {
      const d = reg.connect(1, "w", `rig${i}`, "10.0.0.1", "sha256", T0 + i * 1000);
      reg.disconnect(d, T0 + i * 1000 + 500);
    }
    const online = Array.from({ length: 10 }, (_, i) =>
      reg.connect(1, "w", `live${i}`, "10.0.0.2", "sha256", T0),
    );
    const other = reg.connect(2, "w", "old", "10.0.0.3", "sha256", T0);
    reg.disconnect(other, T0);
    const names = (portId: number, on: boolean) =>
      reg
        .devices(portId)
        .filter((d) => d.connections > 0 === on)
        .map((d) => d.name);
    const now = T0 + 1500 * 1000 + 60_000;
    reg.tick(now, undefined);
    const kept = names(1, false);
    expect(kept).toHaveLength(1000);
    // the 500 that left first are gone, the last 1,000 stay listed
    expect(kept).not.toContain("rig499");
    expect(kept).toContain("rig500");
    expect(kept).toContain("rig1499");
    expect(names(1, true)).toHaveLength(online.length);
    // another port's offline device is its own port's business
    expect(names(2, false)).toEqual(["old"]);

    // with more miners online than the floor, as many offline are kept as are online
    for (let i = 0; i < 1200; i++) reg.connect(1, "w", `more${i}`, "10.0.0.4", "sha256", now);
    for (let i = 0; i < 300; i++) {
      const d = reg.connect(1, "w", `late${i}`, "10.0.0.5", "sha256", now + i);
      reg.disconnect(d, now + i + 1);
    }
    reg.tick(now + 60_000, undefined);
    expect(names(1, false)).toHaveLength(1210);
    expect(names(1, false)).toContain("late299");
    // and after a day offline a device is forgotten whatever the count
    reg.tick(now + 25 * 3600_000, undefined);
    expect(names(1, false)).toHaveLength(0);
    expect(names(2, false)).toHaveLength(0);
  });
});

describe("DeviceRegistry and the hashrate arena", () => {
  test("forgotten devices give their hashrate buckets back, and a late answer for one takes none", () => {
    const reg = new DeviceRegistry();
    const base = ringArena.inUse;
    const devices = Array.from({ length: 2000 }, (_, i) =>
      reg.connect(3, "w", `r${i}`, "10.0.0.9", "sha256", T0),
    );
    for (const [i, d] of devices.entries()) {
      reg.result(d, "valid", "main", 10, 1, true, T0 + 1000);
      if (i < 1000) reg.result(d, "valid", "fee|1", 5, 1, true, T0 + 1000);
    }
    // each device's work window, the fee window of the 1,000 that mined for a fee, and the port's two
    expect(ringArena.inUse).toBe(base + 2000 + 1000 + 2);
    for (const d of devices) reg.disconnect(d, T0 + 2000);
    reg.tick(T0 + 25 * 3600_000, undefined);
    expect(reg.devices(3)).toHaveLength(0);
    expect(ringArena.inUse).toBe(base + 2);
    // a fee answer for a device that never mined for a fee before it was forgotten
    reg.result(devices[1999] as (typeof devices)[0], "valid", "fee|1", 5, 1, true, T0 + 25 * 3600_000);
    expect(ringArena.inUse).toBe(base + 2);
    reg.forgetPort(3);
    expect(ringArena.inUse).toBe(base);
  });
});

describe("SeriesStore", () => {
  test("batched minute and hour roll-ups in SQLite, read back per port", () => {
    const db = new Database(":memory:");
    migrate(db);
    migrate(db); // a second start applies nothing twice
    const store = new SeriesStore(db);
    const minute = Math.floor(T0 / 60_000);
    for (let i = 0; i < 3; i++)
      store.add({
        portId: 7,
        device: "",
        minute: minute + i,
        work: 60e6,
        feeWork: 6e6,
        valid: 10,
        invalid: 1,
        stale: 0,
      });
    store.flush(T0 + 5 * 60_000);
    const mins = store.read(7, "", "minute", T0, T0 + 10 * 60_000);
    expect(mins.length).toBe(3);
    expect(mins[0]?.hashrate).toBe(1e6);
    const hours = store.read(7, "", "hour", T0, T0 + 3_600_000);
    expect(hours.length).toBe(1);
    expect(hours[0]?.valid).toBe(30);
    // old minutes are pruned
    store.flush(T0 + 2 * 24 * 3_600_000);
    expect(store.read(7, "", "minute", T0, T0 + 10 * 60_000).length).toBe(0);
    expect(store.read(7, "", "hour", T0, T0 + 3_600_000).length).toBe(1);
  });
});
