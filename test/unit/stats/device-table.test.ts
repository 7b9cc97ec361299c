import { describe, expect, test } from "bun:test";
import { DeviceTable } from "../../../appliance/stats/device-table.ts";

interface Dev {
  portId: number;
  wallet: string;
  name: string;
  ip: string;
}

const keyOf = (d: Dev) => JSON.stringify([d.portId, d.wallet, d.name, d.ip]);
const find = (t: DeviceTable<Dev>, d: Dev) => t.find({ ...d });

/** a seeded generator, so that a failure can be replayed */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("DeviceTable", () => {
  test("finds what a Map of the same keys finds, through additions, removals and re-additions", () => {
    const rnd = random(7);
    const table = new DeviceTable<Dev>();
    const reference = new Map<string, Dev>();
    const pick = (n: number) => Math.floor(rnd() * n);
    for (let step = 0; step < 40_000; step++) {
      const d: Dev = {
        portId: pick(3),
        wallet: `w${pick(20)}`,
        name: `rig${pick(400)}`,
        ip: `10.0.${pick(4)}.${pick(3)}`,
      };
      const k = keyOf(d);
      const known = reference.get(k);
      expect(find(table, d)).toBe(known);
      if (known === undefined) {
        table.add(d);
        reference.set(k, d);
      } else if (rnd() < 0.6) {
        table.remove(known);
        reference.delete(k);
      }
      expect(table.size).toBe(reference.size);
    }
    // in the order they came, as the Map keeps them
    expect([...table.values()]).toEqual([...reference.values()]);
  });

  test("keys that only differ in where one part ends are different devices", () => {
    const table = new DeviceTable<Dev>();
    const a: Dev = { portId: 1, wallet: "ab", name: "c", ip: "1.2.3.4" };
    const b: Dev = { portId: 1, wallet: "a", name: "bc", ip: "1.2.3.4" };
    const c: Dev = { portId: 11, wallet: "a", name: "bc", ip: "1.2.3.4" };
    table.add(a);
    table.add(b);
    table.add(c);
    expect(find(table, a)).toBe(a);
    expect(find(table, b)).toBe(b);
    expect(find(table, c)).toBe(c);
    expect(table.find({ portId: 1, wallet: "abc", name: "", ip: "1.2.3.4" })).toBeUndefined();
  });

  test("devices that differ only in their address, or only in their name, are each found", () => {
    const table = new DeviceTable<Dev>();
    const all: Dev[] = [];
    for (let i = 0; i < 3_000; i++)
      all.push({ portId: 2, wallet: "w", name: "rig", ip: `10.0.${i >> 8}.${i & 255}` });
    for (let i = 0; i < 3_000; i++) all.push({ portId: 2, wallet: "w", name: `rig${i}`, ip: "10.0.0.0" });
    for (const d of all) table.add(d);
    for (const d of all) expect(find(table, d)).toBe(d);
  });

  test("after most devices left, new ones are added and every device is still found, in order", () => {
    const table = new DeviceTable<Dev>();
    const dev = (i: number): Dev => ({ portId: 1, wallet: "w", name: `r${i}`, ip: "10.0.0.1" });
    const first = Array.from({ length: 3_000 }, (_, i) => dev(i));
    for (const d of first) table.add(d);
    const gone = first.filter((_, i) => i % 50 !== 0);
    for (const d of gone) table.remove(d);
    const kept = first.filter((_, i) => i % 50 === 0);
    const second = Array.from({ length: 3_000 }, (_, i) => dev(10_000 + i));
    for (const d of second) table.add(d);
    expect([...table.values()]).toEqual([...kept, ...second]);
    for (const d of [...kept, ...second]) expect(find(table, d)).toBe(d);
    for (const d of gone) expect(find(table, d)).toBeUndefined();
  });

  test("removing devices while walking them visits every device once", () => {
    const table = new DeviceTable<Dev>();
    const all: Dev[] = [];
    for (let i = 0; i < 5_000; i++) {
      const d = { portId: 1, wallet: "w", name: `r${i}`, ip: "10.0.0.1" };
      all.push(d);
      table.add(d);
    }
    const seen: Dev[] = [];
    for (const d of table.values()) {
      seen.push(d);
      if (Number(d.name.slice(1)) % 3 !== 0) table.remove(d);
    }
    expect(seen).toEqual(all);
    const left = all.filter((d) => Number(d.name.slice(1)) % 3 === 0);
    expect([...table.values()]).toEqual(left);
    for (const d of all) expect(find(table, d)).toBe(left.includes(d) ? d : undefined);
  });
});
