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
  // MINSTD: its products stay below 2^53, so every draw is exact in doubles (a 31-bit LCG's are not,
  // and degenerate: its draws modulo 4 were all 0)
  let seed = 7;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
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

test("a rebate of 50 % returns half the fee its member's work paid, taken from the fee line", () => {
  // A did 1 part of 4: it paid a quarter of the 0.5-coin fee, 12,500,000, and gets half of that back
  const work = new Map([
    ["A", 1 * 2 ** -12],
    ["B", 3 * 2 ** -12],
  ]);
  const credits = splitReward(REWARD, 0.01, work, "pool", [{ subaccount: 7, ratio: 0.5, addresses: ["A"] }]);
  expect(lines(credits)).toEqual({
    "pplns:A": 1_237_500_000n,
    "pplns:B": 3_712_500_000n,
    "rebate:": 6_250_000n,
    "fee:pool": 43_750_000n,
  });
  expect(credits.find((c) => c.kind === "rebate")).toEqual(
    expect.objectContaining({ subaccount: 7, work: 2 ** -12 }),
  );
});

test("rebates for any shares, members and ratios: each is its ratio of its members' part of the fee, rounded down once; the credits sum to the reward", () => {
  // MINSTD: its products stay below 2^53, so every draw is exact in doubles
  let seed = 11;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed;
  };
  for (let round = 0; round < 300; round++) {
    const reward = BigInt(1 + (next() % 2_000_000_000)) * 7n;
    const feePpm = BigInt(next() % 100_000);
    const counts = new Map<string, bigint>();
    for (let i = 0, n = 1 + (next() % 8); i < n; i++) counts.set(`m${i}`, BigInt(1 + (next() % 10_000)));
    const total = [...counts.values()].reduce((a, b) => a + b, 0n);
    // up to three sub-accounts, each taking some of the miners (and an address that did no work)
    const rules = [1, 2, 3].slice(0, next() % 4).map((subaccount) => ({
      subaccount,
      ratioPpm: BigInt(next() % 1_000_001),
      addresses: [...counts.keys()].filter((_, i) => i % 3 === subaccount - 1).concat([`idle${subaccount}`]),
    }));
    const work = new Map([...counts].map(([a, c]) => [a, Number(c) * 2 ** -10]));
    const credits = splitReward(
      reward,
      Number(feePpm) / 1e6,
      work,
      "pool",
      rules.map((r) => ({
        subaccount: r.subaccount,
        ratio: Number(r.ratioPpm) / 1e6,
        addresses: r.addresses,
      })),
    );
    // the truth from the counts: the fee as charged, each sub-account's members' share count, its ratio
    const miners = (reward * (1_000_000n - feePpm)) / 1_000_000n;
    const charged = reward - miners;
    let paid = 0n;
    for (const c of counts.values()) paid += (miners * c) / total;
    for (const r of rules) {
      const members = r.addresses.reduce((sum, a) => sum + (counts.get(a) ?? 0n), 0n);
      const truth = (charged * r.ratioPpm * members) / (total * 1_000_000n);
      const line = credits.find((c) => c.kind === "rebate" && c.subaccount === r.subaccount);
      expect(line?.amount ?? 0n).toBe(truth);
      paid += truth;
    }
    expect(lines(credits)["fee:pool"]).toBe(reward - paid);
    expect(credits.reduce((sum, c) => sum + c.amount, 0n)).toBe(reward);
  }
});

test("no rebate line for a ratio of 0 or a sub-account whose members did no work; a ratio of 1 returns the whole fee they paid", () => {
  const work = new Map([["A", 1]]);
  const none = splitReward(REWARD, 0.01, work, "pool", [
    { subaccount: 1, ratio: 0, addresses: ["A"] },
    { subaccount: 2, ratio: 1, addresses: ["Z"] },
  ]);
  expect(none.map((c) => c.kind)).toEqual(["pplns", "fee"]);
  expect(
    lines(splitReward(REWARD, 0.01, work, "pool", [{ subaccount: 1, ratio: 1, addresses: ["A"] }])),
  ).toEqual({
    "pplns:A": 4_950_000_000n,
    "rebate:": 50_000_000n,
    "fee:pool": 0n,
  });
});
