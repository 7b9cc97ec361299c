/**
 * The split of one block reward (docs/pool-node.md "Reward scheme") in integer base units: the miners'
 * part is the reward less the pool fee, divided in proportion to each address's work in the window,
 * rounded down; a sub-account's rebate is its ratio of the fee its members' work paid, rounded down
 * and taken from the fee line; whatever rounding leaves goes to the fee line, so the credits always
 * add up to the reward exactly.
 *
 * Work is a sum of share difficulties, which are doubles (vardiff makes any value). Each double is an
 * exact binary fraction, so the proportions are taken exactly with BigInt rather than in floating
 * point, where a product like 4.95e9 × 1/3 can land on either side of an integer.
 */

/** The fee is a decimal ratio taken to the millionth: 0.01 is exactly 1 %, which a double is not. */
const FEE_PARTS = 1_000_000n;

export type CreditKind = "pplns" | "fee" | "rebate";

export interface Credit {
  /** the miner's or the pool's address; "" for a rebate, which is the sub-account's */
  address: string;
  amount: bigint;
  kind: CreditKind;
  /** the address's work in the window (its members' for a rebate, 0 for the fee line) */
  work: number;
  /** the sub-account a rebate is credited to */
  subaccount?: number;
}

/** A sub-account as the split sees it: who its members are and what share of their fee comes back. */
export interface RebateRule {
  subaccount: number;
  /** 0..1, taken to the millionth */
  ratio: number;
  addresses: readonly string[];
}

const view = new DataView(new ArrayBuffer(8));

/** x = m · 2^e, exactly, for a finite x ≥ 0. */
function binaryFraction(x: number): { m: bigint; e: number } {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`work must be a finite number ≥ 0, not ${x}`);
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return exponent === 0 ? { m: fraction, e: -1074 } : { m: fraction | (1n << 52n), e: exponent - 1075 };
}

/** The weights as exact integers on one common scale (each times the same power of two), and their sum. */
function exactWeights(weights: ReadonlyMap<string, number>): { scaled: Map<string, bigint>; total: bigint } {
  const exact = [...weights].map(([key, w]) => ({ key, ...binaryFraction(w) }));
  const e = Math.min(...exact.filter((x) => x.m > 0n).map((x) => x.e));
  const scaled = new Map(exact.map((x) => [x.key, x.m === 0n ? 0n : x.m << BigInt(x.e - e)]));
  let total = 0n;
  for (const n of scaled.values()) total += n;
  return { scaled, total };
}

/** `amount` divided in proportion to the weights, each part rounded down. */
export function proportional(amount: bigint, weights: ReadonlyMap<string, number>): Map<string, bigint> {
  const { scaled, total } = exactWeights(weights);
  const parts = new Map<string, bigint>();
  for (const [key, n] of scaled) parts.set(key, total === 0n ? 0n : (amount * n) / total);
  return parts;
}

/** A ratio to the millionth (a fee, a rebate) as an exact integer number of millionths. */
export function feeParts(fee: number): bigint {
  return BigInt(Math.round(fee * Number(FEE_PARTS)));
}

/**
 * The credits of one block: one PPLNS line per address with work, one rebate line per sub-account
 * whose members worked in the window (and whose ratio gives a unit or more), and the fee line to the
 * pool with the rest.
 */
export function splitReward(
  reward: bigint,
  fee: number,
  work: ReadonlyMap<string, number>,
  poolAddress: string,
  rebates: readonly RebateRule[] = [],
): Credit[] {
  const miners = (reward * (FEE_PARTS - feeParts(fee))) / FEE_PARTS;
  const credits: Credit[] = [];
  let paid = 0n;
  for (const [address, amount] of proportional(miners, work)) {
    if (amount === 0n) continue;
    credits.push({ address, amount, kind: "pplns", work: work.get(address) ?? 0 });
    paid += amount;
  }
  // the fee as charged, before rounding adds to it: what the members' work paid is their part of it
  const charged = reward - miners;
  const { scaled, total } = exactWeights(work);
  for (const r of rebates) {
    let members = 0n;
    for (const a of new Set(r.addresses)) members += scaled.get(a) ?? 0n;
    if (members === 0n) continue;
    // ⌊charged × ratio × members / all⌋, rounded once
    const amount = (charged * feeParts(r.ratio) * members) / (total * FEE_PARTS);
    if (amount === 0n) continue;
    const memberWork = r.addresses.reduce((sum, a) => sum + (work.get(a) ?? 0), 0);
    credits.push({ address: "", amount, kind: "rebate", work: memberWork, subaccount: r.subaccount });
    paid += amount;
  }
  credits.push({ address: poolAddress, amount: reward - paid, kind: "fee", work: 0 });
  return credits;
}
