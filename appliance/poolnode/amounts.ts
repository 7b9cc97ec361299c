/**
 * Amounts are kept as integers in the coin's base unit (satoshi, litoshi: 10^-8) and converted only
 * at the edges: the threshold the operator types in coins, and sendmany's amounts. A double holds
 * every base-unit amount up to 2^53 exactly, and n / 10^8 prints as exactly n's eight decimals for
 * any amount below 2^26 coins, more than either coin's supply.
 */
const BASE_UNITS = 1e8;

export const baseUnits = (coins: number): number => Math.round(coins * BASE_UNITS);

export const coinsOf = (units: number): number => units / BASE_UNITS;

/** The least a payout line may be, in coins: below the dust a wallet would refuse the whole sendmany. */
export const MIN_PAYOUT_COINS = 0.001;
