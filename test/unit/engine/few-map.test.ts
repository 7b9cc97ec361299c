import { expect, test } from "bun:test";
import { FewMap, FewSet } from "../../../appliance/engine/few-map.ts";

test("a FewMap answers like a Map through any mix of sets and deletes, small and past its flat size", () => {
  const few = new FewMap<number, string>();
  const map = new Map<number, string>();
  let seed = 11;
  let most = 0;
  for (let k = 0; k < 20_000; k++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // keys 0..15 cross the flat size (8) both ways; later rounds keep it small
    const key = (seed >>> 16) % (k < 10_000 ? 16 : 5);
    if ((seed >>> 8) % 3 === 0) expect(few.delete(key)).toBe(map.delete(key));
    else {
      few.set(key, `v${k}`);
      map.set(key, `v${k}`);
    }
    expect(few.size).toBe(map.size);
    most = Math.max(most, map.size);
    expect(few.get(key)).toBe(map.get(key));
    expect(few.has(key)).toBe(map.has(key));
  }
  expect(most).toBeGreaterThan(8);
  expect([...few].sort()).toEqual([...map].sort());
  expect([...few.values()].sort()).toEqual([...map.values()].sort());
  few.clear();
  expect(few.size).toBe(0);
  expect(few.get(1)).toBeUndefined();
});

test("entries may be deleted and added while a FewMap is visited", () => {
  const few = new FewMap<number, number>();
  for (let i = 0; i < 6; i++) few.set(i, i);
  const seen: number[] = [];
  for (const [k] of few) {
    seen.push(k);
    few.delete(k);
    few.delete(k + 1);
    few.set(100 + k, k);
  }
  expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
});

test("each visits every entry with its argument, as for-of does, small and past the flat size", () => {
  const collect = (few: FewMap<string, number>): string[] => {
    const out: string[] = [];
    few.each((v, k, into) => into.push(`${k}=${v}`), out);
    return out;
  };
  const few = new FewMap<string, number>();
  expect(collect(few)).toEqual([]);
  few.set("a", 1);
  expect(collect(few)).toEqual(["a=1"]);
  few.set("b", 2).set("c", 3);
  expect(collect(few)).toEqual(["a=1", "b=2", "c=3"]);
  for (let i = 0; i < 10; i++) few.set(`k${i}`, i);
  expect(collect(few).sort()).toEqual([...few].map(([k, v]) => `${k}=${v}`).sort());
});

test("entries may be deleted and added while each visits, the lone entry too", () => {
  const lone = new FewMap<number, number>();
  lone.set(1, 1);
  const seenLone: number[] = [];
  lone.each((_v, k, seen) => {
    seen.push(k);
    lone.delete(k);
    lone.set(2, 2);
  }, seenLone);
  expect(seenLone).toEqual([1]);
  expect([...lone.keys()]).toEqual([2]);

  const few = new FewMap<number, number>();
  for (let i = 0; i < 6; i++) few.set(i, i);
  const seen: number[] = [];
  few.each((_v, k, into) => {
    into.push(k);
    few.delete(k);
    few.delete(k + 1);
    few.set(100 + k, k);
  }, seen);
  expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
});

test("a FewSet holds each key once", () => {
  const s = new FewSet<string>();
  s.add("a").add("b").add("a");
  expect(s.size).toBe(2);
  expect(s.has("a")).toBe(true);
  expect(s.delete("a")).toBe(true);
  expect(s.has("a")).toBe(false);
});
