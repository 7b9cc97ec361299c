/** Vardiff's arithmetic with the clock given, not read: retarget points, the ×4 step, the bounds. */
import { expect, test } from "bun:test";
import { Vardiff } from "../../../appliance/poolnode/pool/vardiff.ts";

const opts = { targetSeconds: 10, min: 1, max: 1024 };

test("eight quick shares raise the difficulty, by at most four times", () => {
  const v = new Vardiff(16, opts, 0);
  for (let i = 1; i < 8; i++) expect(v.onShare(i * 100)).toBeNull();
  // 8 shares in 0.8 s: 0.1 s a share against 10 s wanted → ×100, held to ×4
  expect(v.onShare(800)).toBe(64);
  expect(v.current).toBe(64);
});

test("shares at the target rate change nothing; twice as fast doubles it (checked after three periods)", () => {
  const v = new Vardiff(16, opts, 0);
  // one share every 10 s: at 30 s the window closes with three shares, 10 s each
  for (let i = 1; i <= 3; i++) expect(v.onShare(i * 10_000)).toBeNull();
  expect(v.current).toBe(16);
  // then one every 5 s: six shares when the next 30 s are up
  for (let i = 1; i <= 5; i++) expect(v.onShare(30_000 + i * 5_000)).toBeNull();
  expect(v.onShare(60_000)).toBe(32);
});

test("a miner whose shares stopped gets a lower difficulty after three periods, not before", () => {
  const v = new Vardiff(16, opts, 0);
  expect(v.check(29_000)).toBeNull();
  // no share in 30 s counts as one share in 30 s: 10/30 of the difficulty
  expect(v.check(30_000)).toBeCloseTo(16 / 3, 10);
});

test("the bounds hold", () => {
  // ×4 would give 2400
  const up = new Vardiff(600, opts, 0);
  for (let i = 1; i <= 8; i++) up.onShare(i);
  expect(up.current).toBe(1024);
  const down = new Vardiff(2, opts, 0);
  expect(down.check(1_000_000)).toBe(1);
  expect(down.check(2_000_000)).toBeNull();
});

test("without options the difficulty never moves", () => {
  const v = new Vardiff(16, null, 0);
  for (let i = 1; i <= 100; i++) expect(v.onShare(i)).toBeNull();
  expect(v.check(1_000_000)).toBeNull();
  expect(v.current).toBe(16);
});
