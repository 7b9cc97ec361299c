import { describe, expect, test } from "bun:test";
import { CATEGORIES, modesOf } from "../../appliance/catalog/categories.ts";
import { familyFor } from "../../appliance/engine/stratum/families.ts";
import { makeEngine, makePort } from "../support/stratum/port-fixture.ts";

describe("the catalogue offers exactly what the engine implements", () => {
  test("every category with modes has a family in the engine with those modes, and no other does", () => {
    for (const category of CATEGORIES) {
      if (category === "nginx") continue; // the forward coin is a relay, not a stratum family
      const family = familyFor(category);
      expect({ category, modes: [...(family?.modes ?? [])] as number[] }).toEqual({
        category,
        modes: [...modesOf(category)],
      });
    }
  });

  test("the Bitcoin and Ethereum families run; RandomX coins run as CryptoNote; the others are refused, not spoken to in Bitcoin stratum", () => {
    expect(familyFor("sha256")?.name).toBe("bitcoin");
    expect(familyFor("scrypt")?.name).toBe("bitcoin");
    for (const c of ["ethhash", "eth1hash", "ethhash2d"] as const) {
      expect(familyFor(c)?.name).toBe("ethereum");
      expect(modesOf(c)).toEqual([0, 2]);
    }
    expect(familyFor("randomx")?.name).toBe("cryptonote");
    expect(modesOf("randomx")).toEqual([0, 2]);
    expect(familyFor("blake3")?.name).toBe("alephium");
    expect(modesOf("blake3")).toEqual([0, 2]);
    for (const c of ["kheavyhash", "karlsenhash", "blake3s"] as const) {
      expect(familyFor(c)?.name).toBe("kaspa");
      expect(modesOf(c)).toEqual([0, 2]);
    }
    for (const c of ["kawpow", "kawpow2", "progpow"] as const) {
      expect(familyFor(c)?.name).toBe("kawpow");
      expect(modesOf(c)).toEqual([0, 2]);
    }
    for (const c of [
      "dynexsolve",
      "octopus",
      "eaglesong",
      "blake2b",
      "autoykos2",
      "nexapow",
      "cuckatoo32",
      "zksnark",
    ] as const) {
      expect(familyFor(c)?.name).toBe("passthrough");
      expect(modesOf(c)).toEqual([0]);
    }
    expect(familyFor("equihash")?.name).toBe("equihash");
    expect(modesOf("equihash")).toEqual([0, 2]);
  });
});

describe("a stored port of a category without a family", () => {
  test("is not started and the log says why (never answered in Bitcoin stratum)", async () => {
    // every catalogue category has a family now; a category the catalogue no longer knows has none
    const t = makeEngine();
    const port = makePort({ pool_address: "127.0.0.1:1", currency: "ZEC", category: "retiredhash" });
    await expect(t.engine.apply(port)).rejects.toThrow("the retiredhash protocol family is not implemented");
    expect(t.engine.runState(port.id)).toBe("closed");
    expect(t.engine.running(port.id)).toBeUndefined();
    expect(t.logs).toContain(
      `error ${port.id} not started: the retiredhash protocol family is not implemented`,
    );
    await t.engine.shutdown();
  });
});
