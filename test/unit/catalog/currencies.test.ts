import { describe, expect, test } from "bun:test";
import { CATEGORIES, familyOf, hashFactorOf, isCategory } from "../../../appliance/catalog/categories.ts";
import {
  ADVISORY_NOTES,
  advisoryNotes,
  CURRENCIES,
  categoryOf,
  coinOrder,
  currencyConfig,
  displayName,
  NGINX_LABEL_KEY,
  POOL_NODE_COINS,
} from "../../../appliance/catalog/currencies.ts";

describe("currency catalogue", () => {
  test("starts with the fixed order of spec §2", () => {
    expect(CURRENCIES.slice(0, 4).map((c) => c.coin)).toEqual(["NGINX", "BTC", "FB", "ALEO"]);
  });

  test("has a realistic number of coins, each once", () => {
    const coins = CURRENCIES.map((c) => c.coin);
    expect(coins.length).toBeGreaterThanOrEqual(80);
    expect(new Set(coins).size).toBe(coins.length);
  });

  test("every coin has a category of spec §3 and a family", () => {
    for (const c of CURRENCIES) {
      expect(isCategory(c.category)).toBe(true);
      expect(familyOf(c.category)).toBeString();
    }
  });

  test("applies the display rules of spec §2", () => {
    expect(displayName("KAS(ks3)")).toBe("KAS(ks3, ks3l, ks3m)");
    expect(displayName("KASPA")).toBe("KAS(GPU)");
    expect(displayName("NGINX")).toBe(NGINX_LABEL_KEY);
    expect(displayName("BTC")).toBe("BTC");
    expect(displayName("NOPE")).toBe("NOPE");
  });

  test("knows the categories and families of key coins", () => {
    expect(categoryOf("BTC")).toBe("sha256");
    expect(categoryOf("LTC")).toBe("scrypt");
    expect(categoryOf("KAS(ks3)")).toBe("kheavyhash");
    expect(categoryOf("NGINX")).toBe("nginx");
    expect(categoryOf("ALEO")).toBe("zksnark");
    expect(categoryOf("NOPE")).toBeUndefined();
    expect(familyOf("nginx")).toBe("forward");
    expect(familyOf("sha256")).toBe("bitcoin");
    expect(familyOf("randomx")).toBe("cryptonote");
    expect(familyOf("kheavyhash")).toBe("kaspa");
    expect(familyOf("blake3")).toBe("alephium");
    expect(familyOf("equihash")).toBe("equihash");
    expect(familyOf("kawpow")).toBe("kawpow");
    expect(familyOf("ethhash")).toBe("ethereum");
    expect(familyOf("dynexsolve")).toBe("passthrough");
  });

  test("gives the hashrate factors protocols.md states, and none it does not", () => {
    expect(hashFactorOf("sha256")).toBe(2 ** 32);
    expect(hashFactorOf("scrypt")).toBe(2 ** 16);
    expect(hashFactorOf("lbry")).toBe(2 ** 24);
    expect(hashFactorOf("blake3")).toBe(2 ** 34);
    expect(hashFactorOf("randomx")).toBe(1);
    expect(hashFactorOf("equihash")).toBeNull();
    expect(hashFactorOf("zksnark")).toBeNull();
  });

  test("every category of the spec is used by some coin", () => {
    const used = new Set(CURRENCIES.map((c) => c.category));
    expect(CATEGORIES.filter((c) => !used.has(c))).toEqual([]);
  });

  test("currency config is keyed by coin in display order", () => {
    const config = currencyConfig();
    expect(Object.keys(config)).toEqual(CURRENCIES.map((c) => c.coin));
    expect(config.BTC).toMatchObject({ is_pub: 1, category: "sha256", family: "bitcoin", label: "BTC" });
    expect(config.KASPA).toMatchObject({ label: "KAS(GPU)", modelGroup: "gpu" });
    expect(config["VA-BTC"]?.is_pub).toBe(0);
    // survives JSON in the same order (no integer-like keys)
    expect(Object.keys(JSON.parse(JSON.stringify(config)))).toEqual(Object.keys(config));
  });

  test("each coin says what its hashrate counts: Sol for Equihash, G for Cuckatoo, H for the rest", () => {
    const config = currencyConfig();
    expect(config.ZEC?.hash_unit).toBe("Sol");
    expect(config.GRIN?.hash_unit).toBe("G");
    expect(config.BTC?.hash_unit).toBe("H");
    expect(config.KAS?.hash_unit).toBe("H");
  });

  test("advisory notes exist for LTC, ALPH, RXD, DNX and old BTC models, with English text", () => {
    for (const coin of ["LTC", "ALPH", "RXD", "DNX", "BTC"]) {
      const notes = advisoryNotes(coin);
      expect(notes.length).toBeGreaterThan(0);
      for (const key of notes) expect(Object.keys(ADVISORY_NOTES)).toContain(key);
    }
    expect(advisoryNotes("DOGE")).toEqual([]);
  });

  test("pool-node coins are in the catalogue", () => {
    for (const coin of POOL_NODE_COINS) expect(categoryOf(coin)).toBeDefined();
  });

  test("coinOrder sorts by the fixed order, unknown coins last", () => {
    const sorted = ["LTC", "ZZZ", "BTC", "NGINX"].sort((a, b) => coinOrder(a) - coinOrder(b));
    expect(sorted).toEqual(["NGINX", "BTC", "LTC", "ZZZ"]);
  });
});
