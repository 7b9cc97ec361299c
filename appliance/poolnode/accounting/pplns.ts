/**
 * The split of one block reward (docs/pool-node.md "Reward scheme") in integer base units: the miners'
 * part is the reward less the pool fee, divided in proportion to each address's work in the window,
 * rounded down; whatever rounding leaves goes to the pool's fee line, so the credits always add up to
 * the reward exactly.
 *
 * Work is a sum of share difficulties, which are doubles (vardiff makes any value). Each double is an
 * exact binary fraction, so the proportions are taken exactly with BigInt rather than in floating
 * point, where a product like 4.95e9 × 1/3 can land on either side of an integer.
 */

/** The fee is a decimal ratio taken to the millionth: 0.01 is exactly 1 %, which a double is not. */
const FEE_PARTS = 1_000_000n;

export type CreditKind = "pplns" | "fee";

export interface Credit {
  address: string;
  amount: bigint;
  kind: CreditKind;
  /** the address's work in the window (0 for the fee line) */
  work: number;
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

/** `amount` divided in proportion to the weights, each part rounded down. */
export function proportional(amount: bigint, weights: ReadonlyMap<string, number>): Map<string, bigint> {
  const exact = [...weights].map(([key, w]) => ({ key, ...binaryFraction(w) }));
  const e = Math.min(...exact.filter((x) => x.m > 0n).map((x) => x.e));
  const scaled = exact.map((x) => ({ key: x.key, n: x.m === 0n ? 0n : x.m << BigInt(x.e - e) }));
  const total = scaled.reduce((sum, x) => sum + x.n, 0n);
  const parts = new Map<string, bigint>();
  for (const x of scaled) parts.set(x.key, total === 0n ? 0n : (amount * x.n) / total);
  return parts;
}

export function feeParts(fee: number): bigint {
  return BigInt(Math.round(fee * Number(FEE_PARTS)));
}

/** The credits of one block: one PPLNS line per address with work, and the fee line to the pool. */
export function splitReward(
  reward: bigint,
  fee: number,
  work: ReadonlyMap<string, number>,
  poolAddress: string,
): Credit[] {
  const miners = (reward * (FEE_PARTS - feeParts(fee))) / FEE_PARTS;
  const credits: Credit[] = [];
  let paid = 0n;
  for (const [address, amount] of proportional(miners, work)) {
    if (amount === 0n) continue;
    credits.push({ address, amount, kind: "pplns", work: work.get(address) ?? 0 });
    paid += amount;
  }
  credits.push({ address: poolAddress, amount: reward - paid, kind: "fee", work: 0 });
  return credits;
}
