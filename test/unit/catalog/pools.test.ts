import { describe, expect, test } from "bun:test";
import { coinOrder, isKnownCoin } from "../../../appliance/catalog/currencies.ts";
import { builtinPools, builtinPoolsFor } from "../../../appliance/catalog/pools.ts";

describe("built-in pools", () => {
  const pools = builtinPools();

  test("every pool's coin exists in the catalogue", () => {
    expect(pools.filter((p) => !isKnownCoin(p.brand))).toEqual([]);
  });

  test("urls are host:port without scheme, protocol is 0 or 1", () => {
    for (const p of pools) {
      expect(p.url).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}:\d{1,5}$/);
      const port = Number(p.url.split(":")[1]);
      expect(port).toBeGreaterThan(0);
      expect(port).toBeLessThan(65536);
      expect([0, 1]).toContain(p.protocol);
      expect(p.content.length).toBeGreaterThan(0);
    }
  });

  test("no pool is listed twice for a coin", () => {
    const keys = pools.map((p) => `${p.brand} ${p.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("come grouped in the coin display order", () => {
    const orders = pools.map((p) => coinOrder(p.brand));
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  test("filter by coin", () => {
    expect(builtinPoolsFor("BTC").length).toBeGreaterThan(3);
    expect(builtinPoolsFor("BTC").every((p) => p.brand === "BTC")).toBe(true);
    expect(builtinPoolsFor("NGINX")).toEqual([]);
  });
});
