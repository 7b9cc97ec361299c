import { expect, test } from "bun:test";
import { COLUMNS, type Sample, slopePerHour, toCsv } from "../../../bench/soak/samples.ts";

const at = (minute: number, rssBytes: number): Sample => ({
  minute,
  rssBytes,
  heapBytes: 0,
  openFds: 0,
  minersConnected: 0,
  poolSessions: 0,
  devicesKnown: 0,
  sqliteBytes: 0,
  acceptedShares: 0,
  reconnects: 0,
  load1: 0,
});

test("the soak's RSS slope is the least-squares line through the samples, per hour", () => {
  // a step from 101 to 105: the least-squares line rises 8 / 5 = 1.6 a minute
  const samples = [at(0, 101), at(1, 101), at(2, 105), at(3, 105)];
  expect(slopePerHour(samples, (s) => s.rssBytes)).toBeCloseTo(1.6 * 60, 9);
  expect(slopePerHour([at(0, 5), at(10, 5)], (s) => s.rssBytes)).toBe(0);
  expect(slopePerHour([at(0, 5)], (s) => s.rssBytes)).toBe(0);
});

test("the soak's CSV has one header and one row per sample, in column order", () => {
  const lines = toCsv([at(0.5, 7), at(1, 8)])
    .trimEnd()
    .split("\n");
  expect(lines[0]).toBe(COLUMNS.join(","));
  expect(lines[1]?.split(",").slice(0, 2)).toEqual(["0.5", "7"]);
  expect(lines.length).toBe(3);
});
