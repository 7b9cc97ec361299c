/**
 * The split of a block reward in base units. The truth is integer arithmetic done here on weights
 * whose ratio is known exactly, not the module's own binary-fraction code.
 */
import { expect, test } from "bun:test";
import { splitReward } from "../../../appliance/poolnode/accounting/pplns.ts";

const REWARD = 5_000_000_000n; // 50 LTC in litoshi

const lines = (credits: ReturnType<typeof splitReward>) =>
  Object.fromEntries(credits.map((c) => [`${c.kind}:${c.address}`, c.amount]));

test("a 1 % fee of 50 coins is exactly 0.5 coin, and one miner gets the rest", () => {
  expect(lines(splitReward(REWARD, 0.01, new Map([["A", 2 ** -16]]), "pool"))).toEqual({
    "pplns:A": 4_950_000_000n,
    "fee:pool": 50_000_000n,
  });
});

test("a 10,000-coin reward (Dogecoin's) at a 6.2645 % fee: the miners' part to the unit, where doubles lose one", () => {
  const reward = 1_000_000_000_000n;
  expect(Math.floor(1e12 * (1 - 0.062645))).toBe(937_354_999_999);
  expect(lines(splitReward(reward, 0.062645, new Map([["A", 1]]), "pool"))).toEqual({
    "pplns:A": 937_355_000_000n,
    "fee:pool": 62_645_000_000n,
  });
});

test("work in any integer ratio: each credit is its proportional part rounded down, the fee line takes the rest", () => {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed;
  };
  for (let round = 0; round < 200; round++) {
    const reward = BigInt(1 + (next() % 2_000_000_000)) * 3n;
    const feePpm = BigInt(next() % 50_000);
    const counts = new Map<string, bigint>();
    for (let i = 0, n = 1 + (next() % 7); i < n; i++) counts.set(`m${i}`, BigInt(1 + (next() % 10_000)));
    const total = [...counts.values()].reduce((a, b) => a + b, 0n);
    // shares of one difficulty: work is the count times it, a binary fraction, so the ratio is exact
    const work = new Map([...counts].map(([a, c]) => [a, Number(c) * 2 ** -12]));
    const credits = lines(splitReward(reward, Number(feePpm) / 1e6, work, "pool"));
    const miners = (reward * (1_000_000n - feePpm)) / 1_000_000n;
    let paid = 0n;
    for (const [a, c] of counts) {
      const truth = (miners * c) / total;
      if (truth > 0n) expect(credits[`pplns:${a}`]).toBe(truth);
      paid += truth;
    }
    expect(credits["fee:pool"]).toBe(reward - paid);
    expect(Object.values(credits).reduce((a, b) => (a ?? 0n) + (b ?? 0n), 0n)).toBe(reward);
  }
});

test("weights that are not decimal-exact keep their exact ratio: 0.1 and 0.2 split 1 : 2, not 1649999999", () => {
  // as doubles 0.2 is exactly twice 0.1, while 0.1 + 0.2 is not 0.3: floating point would lose a unit
  expect(0.2).toBe(2 * 0.1);
  expect(Math.floor((4_950_000_000 * 0.1) / (0.1 + 0.2))).toBe(1_649_999_999);
  const credits = lines(
    splitReward(
      REWARD,
      0.01,
      new Map([
        ["A", 0.1],
        ["B", 0.2],
      ]),
      "pool",
    ),
  );
  expect(credits).toEqual({ "pplns:A": 1_650_000_000n, "pplns:B": 3_300_000_000n, "fee:pool": 50_000_000n });
});

test("a fee of 0 and of 1: all to the miners, all to the pool", () => {
  const work = new Map([
    ["A", 1],
    ["B", 3],
  ]);
  expect(lines(splitReward(REWARD, 0, work, "pool"))).toEqual({
    "pplns:A": 1_250_000_000n,
    "pplns:B": 3_750_000_000n,
    "fee:pool": 0n,
  });
  expect(lines(splitReward(REWARD, 1, work, "pool"))).toEqual({ "fee:pool": REWARD });
});
