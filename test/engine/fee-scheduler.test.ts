import { describe, expect, test } from "bun:test";
import { FeeScheduler } from "../../appliance/engine/fee.ts";
import { MAIN, WorkSplit } from "../../appliance/stats/work-split.ts";
import { feeWallet } from "../support/stratum/port-fixture.ts";

/** Simulates a miner whose every share is accepted, switching as the scheduler says. */
function simulate(s: FeeScheduler, shares: number, work: (i: number) => number, device = "d", wallet = "w") {
  const split = new WorkSplit();
  let current = MAIN;
  let switches = 0;
  for (let i = 0; i < shares; i++) {
    const w = work(i);
    split.credit(current, w);
    const next = s.choose(split, s.ratiosFor(device, wallet), current, w);
    if (next !== current) switches++;
    current = next;
  }
  return { split, switches };
}

describe("FeeScheduler", () => {
  test("2 % of accepted work over 100,000 equal shares, within ±0.05 pp, with few switches", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "fee", "127.0.0.1:1", 0.02)]);
    const { split, switches } = simulate(s, 100_000, () => 1);
    const key = s.targets[0]?.key as string;
    expect(Math.abs(split.achieved(key) - 0.02)).toBeLessThan(0.0005);
    // visits of about FEE_BATCH_SHARES shares: 2,000 fee shares → about 500 visits, 1,000 switches
    expect(switches).toBeLessThan(1_200);
  });

  test("converges on work, not share count, when difficulties differ", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "a", "127.0.0.1:1", 0.03), feeWallet(2, "b", "127.0.0.1:2", 0.01)]);
    // share work varies 1..10 (different pools' difficulties, vardiff)
    const { split } = simulate(s, 50_000, (i) => 1 + ((i * 7919) % 10));
    const [a, b] = s.targets.map((t) => split.achieved(t.key));
    expect(Math.abs((a as number) - 0.03)).toBeLessThan(0.001);
    expect(Math.abs((b as number) - 0.01)).toBeLessThan(0.001);
  });

  test("priority device > wallet > port: an override rescales the port's wallets", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "a", "127.0.0.1:1", 0.02), feeWallet(2, "b", "127.0.0.1:2", 0.02)]);
    expect(s.configuredTotal(s.ratiosFor("dev", "wal"))).toBeCloseTo(0.04, 9);
    s.setWalletRatio("wal", 0.1);
    expect(s.ratiosFor("dev", "wal").map((r) => r.ratio)).toEqual([0.05, 0.05]);
    s.setDeviceRatio("dev", 0.02);
    expect(s.configuredTotal(s.ratiosFor("dev", "wal"))).toBeCloseTo(0.02, 9);
    expect(s.configuredTotal(s.ratiosFor("other", "wal"))).toBeCloseTo(0.1, 9);
    s.setDeviceRatio("dev", null);
    s.setWalletRatio("wal", null);
    expect(s.configuredTotal(s.ratiosFor("dev", "wal"))).toBeCloseTo(0.04, 9);
  });

  test("an override has no effect when the port's wallets have no ratio", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "a", "127.0.0.1:1", 0)]);
    s.setDeviceRatio("dev", 0.5);
    expect(s.configuredTotal(s.ratiosFor("dev", "w"))).toBe(0);
    const { split } = simulate(s, 1000, () => 1, "dev");
    expect(split.feeWork()).toBe(0);
  });

  test("Compatible per-share picks converge too, counting in-flight shares", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "a", "127.0.0.1:1", 0.05)]);
    const split = new WorkSplit();
    const inflight: Array<[string, number]> = [];
    for (let i = 0; i < 20_000; i++) {
      const t = s.pickForShare(split, s.ratiosFor("d", "w"), 2);
      split.addInflight(t, 2);
      inflight.push([t, 2]);
      // answers arrive three shares late
      if (inflight.length > 3) {
        const [tt, w] = inflight.shift() as [string, number];
        split.settleInflight(tt, w);
        split.credit(tt, w);
      }
    }
    expect(Math.abs(split.achieved(s.targets[0]?.key as string) - 0.05)).toBeLessThan(0.001);
  });

  test("100 devices at random, fee pool at twice the difficulty: the port's split holds within ±0.05 pp", () => {
    const s = new FeeScheduler();
    s.setWallets([feeWallet(1, "fee", "127.0.0.1:1", 0.02)]);
    const key = s.targets[0]?.key as string;
    const ratios = s.ratiosFor("d", "w");
    const port = new WorkSplit();
    const devices = Array.from({ length: 100 }, () => ({ split: new WorkSplit(), current: MAIN }));
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 100_000; i++) {
      const d = devices[Math.floor(random() * 100)] as (typeof devices)[number];
      const w = d.current === MAIN ? 1 : 2;
      d.split.credit(d.current, w);
      port.credit(d.current, w);
      d.current = s.choose(d.split, ratios, d.current, w, () => 2);
    }
    expect(Math.abs(port.achieved(key) - 0.02)).toBeLessThan(0.0005);
    for (const d of devices) expect(Math.abs(d.split.achieved(key) - 0.02)).toBeLessThan(0.01);
  });
});
