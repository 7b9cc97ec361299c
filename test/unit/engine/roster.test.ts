import { describe, expect, test } from "bun:test";
import { Roster } from "../../../appliance/engine/roster.ts";
import { SlotTable } from "../../../appliance/engine/stratum/slot-table.ts";

interface Member {
  name: string;
  at: number;
  other: number;
}
const member = (name: string): Member => ({ name, at: -1, other: -1 });
const names = (r: Iterable<Member>) => [...r].map((m) => m.name).sort();

describe("Roster", () => {
  test("adds, removes and counts members like a set", () => {
    const r = new Roster<"at", Member>("at");
    const [a, b, c] = [member("a"), member("b"), member("c")];
    expect(r.add(a)).toBe(true);
    expect(r.add(b)).toBe(true);
    expect(r.add(a)).toBe(false);
    r.add(c);
    expect(r.size).toBe(3);
    expect(r.delete(a)).toBe(true);
    expect(r.delete(a)).toBe(false);
    expect(r.has(a)).toBe(false);
    expect(r.has(c)).toBe(true);
    expect(names(r)).toEqual(["b", "c"]);
    // the member moved into the freed place is still found and removable
    expect(r.delete(c)).toBe(true);
    expect(names(r)).toEqual(["b"]);
  });

  test("counts the members a test holds for, and only the current members", () => {
    const r = new Roster<"at", Member>("at");
    const all = ["a1", "b", "a2", "a3"].map(member);
    for (const m of all) r.add(m);
    r.delete(all[3] as Member);
    expect(r.count((m) => m.name.startsWith("a"))).toBe(2);
  });

  test("a member of one roster is not a member of another with the same field", () => {
    const r1 = new Roster<"at", Member>("at");
    const r2 = new Roster<"at", Member>("at");
    const a = member("a");
    r1.add(member("x"));
    r1.add(a);
    expect(r2.has(a)).toBe(false);
    expect(r2.delete(a)).toBe(false);
    expect(r1.has(a)).toBe(true);
  });

  /** The two ways to visit a roster: iteration, and `each` with its two arguments. */
  const visits: Array<[string, (r: Roster<"at", Member>, visit: (m: Member) => void) => void]> = [
    [
      "iterated",
      (r, visit) => {
        for (const m of r) visit(m);
      },
    ],
    [
      "visited with each",
      (r, visit) =>
        r.each(
          (m, f, g) => f(g(m)),
          visit,
          (m: Member) => m,
        ),
    ],
  ];

  for (const [how, visitAll] of visits) {
    test(`${how}: members may leave and join during the visits; every member present at the start is visited once`, () => {
      const r = new Roster<"at", Member>("at");
      const all = Array.from({ length: 50 }, (_, i) => member(`m${i}`));
      for (const m of all) r.add(m);
      const visited: string[] = [];
      visitAll(r, (m) => {
        visited.push(m.name);
        r.delete(m);
        // another member leaves too, and a newcomer joins
        const other = all[(all.indexOf(m) * 7) % 50] as Member;
        r.delete(other);
        r.add(member(`new-${m.name}`));
      });
      expect(visited.sort()).toEqual(all.map((m) => m.name).sort());
      expect(r.size).toBe(50);
    });

    test(`${how}: a lone member that leaves and lets a newcomer in is visited once, the newcomer not`, () => {
      const r = new Roster<"at", Member>("at");
      r.add(member("alone"));
      const visited: string[] = [];
      visitAll(r, (m) => {
        visited.push(m.name);
        r.delete(m);
        r.add(member(`new-${m.name}`));
      });
      expect(visited).toEqual(["alone"]);
      expect(names(r)).toEqual(["new-alone"]);
    });
  }

  test("thousands of joins and leaves in any order keep it consistent", () => {
    const r = new Roster<"other", Member>("other");
    const pool = Array.from({ length: 300 }, (_, i) => member(`m${i}`));
    const inside = new Set<Member>();
    let seed = 7;
    for (let k = 0; k < 5000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const m = pool[seed % pool.length] as Member;
      if (inside.has(m)) {
        expect(r.delete(m)).toBe(true);
        inside.delete(m);
      } else {
        expect(r.add(m)).toBe(true);
        inside.add(m);
      }
    }
    expect(r.size).toBe(inside.size);
    expect(names(r)).toEqual(names(inside));
  });
});

describe("SlotTable", () => {
  test("leases slots 0..255 and counts holders", () => {
    const t = new SlotTable<string>();
    t.set(0, "a");
    t.set(255, "b");
    t.set(255, "c");
    expect(t.size).toBe(2);
    expect(t.get(255)).toBe("c");
    expect(t.has(1)).toBe(false);
    t.delete(0);
    t.delete(0);
    expect(t.size).toBe(1);
    t.clear();
    expect(t.size).toBe(0);
    expect(t.get(255)).toBeUndefined();
  });
});
