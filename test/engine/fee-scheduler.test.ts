/**
 * The fee scheduler against simulated farms (test/support/fee/fee-sim.ts): Poisson miners at real
 * share rates, shares in flight, delayed job switches, a fee pool that rejects some shares. The
 * achieved split is the simulation's own tally of accepted work, which the scheduler never reads.
 * Real sockets, real pools and hashing miners are in e2e-fee*.test.ts; this covers the rates and
 * sizes an e2e test cannot reach.
 */
import { describe, expect, test } from "bun:test";
import { runFarm } from "../support/fee/fee-sim.ts";

const pp = (x: number) => x * 100;

describe("fee scheduler on simulated farms", () => {
  test("1,000 miners at one share per 5 s: first fee share within 60 s, ±0.05 pp over 100,000 shares", () => {
    for (const seed of [1, 2, 3]) {
      const r = runFarm(
        { miners: 1000, sharesPerSecond: 0.2, feeDifficulty: 2, ratios: [0.02], seed },
        100_000,
      );
      expect(r.firstFeeShareS).toBeLessThan(60);
      expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
    }
  });

  test("200 miners at 10 shares/s do not over-divert", () => {
    for (const seed of [1, 2, 3]) {
      const r = runFarm(
        { miners: 200, sharesPerSecond: 10, feeDifficulty: 2, ratios: [0.02], seed },
        150_000,
      );
      expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
    }
  });

  test("5,000 miners at 10 shares/s coming up over 5 s: their first 100,000 shares (2 s) are not short of the fee", () => {
    // The farm's first seconds leave a deficit; a controller that pays it back over seconds, not
    // tenths of a second, ends these 2 s 0.05–0.17 pp short.
    for (const [feeDifficulty, ratios] of [
      [0.5, Array.from({ length: 10 }, () => 0.002)],
      [2, [0.02]],
    ] as const)
      for (const seed of [1, 2, 3, 4]) {
        const r = runFarm(
          { miners: 5000, sharesPerSecond: 10, feeDifficulty, ratios: [...ratios], feeRejects: 0.01, seed },
          100_000,
        );
        expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.06);
      }
  });

  test("5,000 miners at 10 shares/s that start together, ten wallets: their first 100,000 shares (2 s) are not short", () => {
    // All at once, as after a proxy restart: in the first tenth of a second most miners have not
    // sent a share yet. Counted in the need only from their first share, they left the fee behind
    // while they came in, and these 2 s ended 0.03 pp short on average over these eight restarts.
    // One run is 2 s of ten wallets' bands, so single runs spread by ±0.05 pp; the mean is the test.
    const errors = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => {
      const ratios = Array.from({ length: 10 }, () => 0.002);
      const farm = { miners: 5000, sharesPerSecond: 10, feeDifficulty: 2, ratios, feeRejects: 0.01, seed };
      return pp(runFarm({ ...farm, rampMs: 1 }, 100_000).achieved - 0.02);
    });
    for (const e of errors) expect(Math.abs(e)).toBeLessThan(0.06);
    expect(Math.abs(errors.reduce((a, b) => a + b, 0) / errors.length)).toBeLessThan(0.02);
  });

  test("a share a minute per miner, fee pool at half the difficulty", () => {
    const r = runFarm({ miners: 200, sharesPerSecond: 1 / 60, feeDifficulty: 0.5, ratios: [0.02] }, 100_000);
    expect(r.firstFeeShareS).toBeLessThan(120);
    expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
  });

  test("ten fee wallets, 1 % of fee shares rejected: each wallet converges on accepted work", () => {
    const ratios = [0.004, 0.003, 0.003, 0.002, 0.002, 0.002, 0.001, 0.001, 0.001, 0.001];
    const r = runFarm(
      { miners: 1000, sharesPerSecond: 0.5, feeDifficulty: 2, ratios, feeRejects: 0.01 },
      150_000,
    );
    const total = r.mainWork + [...r.feeWork.values()].reduce((a, b) => a + b, 0);
    expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
    r.keys.forEach((k, i) => {
      expect(Math.abs(pp((r.feeWork.get(k) ?? 0) / total - (ratios[i] as number)))).toBeLessThan(0.03);
    });
  });

  test("hashrates that differ by up to ±80 % between miners", () => {
    const r = runFarm(
      { miners: 1000, sharesPerSecond: 0.2, feeDifficulty: 2, ratios: [0.02], spread: 0.8 },
      100_000,
    );
    expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
  });

  test("devices that come and go: the port balance absorbs them", () => {
    const r = runFarm(
      { miners: 1000, sharesPerSecond: 0.2, feeDifficulty: 2, ratios: [0.02], churn: 0.01, awayMs: 20_000 },
      100_000,
    );
    expect(Math.abs(pp(r.achieved - 0.02))).toBeLessThan(0.05);
  });

  test("device overrides are held per device and the port total converges on the weighted target", () => {
    const deviceRatios = new Map([
      [1, 0.1],
      [2, 0.1],
      [3, 0.05],
      [4, 0],
    ]);
    for (const seed of [1, 2, 3, 4]) {
      const r = runFarm(
        { miners: 200, sharesPerSecond: 1, feeDifficulty: 1, ratios: [0.02], deviceRatios, seed },
        200_000,
      );
      const target = r.scheduler.effective().ratio;
      expect(target).toBeGreaterThan(0.02);
      expect(Math.abs(pp(r.achieved - target))).toBeLessThan(0.05);
      for (const [i, ratio] of deviceRatios) {
        const m = r.perMiner[i] as { main: number; fee: number };
        // one device alone (about 1,000 shares): within a band of its own shares (4 in 1,000), not
        // the luck of its visits' time (±10 fee shares in 100)
        expect(Math.abs(m.fee / (m.fee + m.main) - ratio)).toBeLessThan(0.005);
      }
      const plain = r.perMiner.filter((_, i) => !deviceRatios.has(i));
      const fee = plain.reduce((s, m) => s + m.fee, 0);
      const all = plain.reduce((s, m) => s + m.fee + m.main, 0);
      expect(Math.abs(pp(fee / all - 0.02))).toBeLessThan(0.05);
    }
  });

  test("pump_t: a minimum time between a device's switches cuts switches and still converges", () => {
    const free = runFarm({ miners: 1000, sharesPerSecond: 0.2, feeDifficulty: 2, ratios: [0.02] }, 100_000);
    const held = runFarm(
      { miners: 1000, sharesPerSecond: 0.2, feeDifficulty: 2, ratios: [0.02], holdSeconds: 60 },
      100_000,
    );
    expect(held.switchesPerDeviceHour).toBeLessThan(free.switchesPerDeviceHour / 3);
    expect(Math.abs(pp(held.achieved - 0.02))).toBeLessThan(0.05);
  });

  test("one fast miner alone converges too", () => {
    const r = runFarm({ miners: 1, sharesPerSecond: 200, feeDifficulty: 1, ratios: [0.05] }, 20_000);
    expect(Math.abs(pp(r.achieved - 0.05))).toBeLessThan(0.2);
  });
});
