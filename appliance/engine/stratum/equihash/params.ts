/**
 * Equihash parameters by coin, only to check a share's solution length before it goes to a pool:
 * the engine never runs Equihash. A solution is 2^k indices of n/(k+1)+1 bits each, after its
 * compactSize length. The values are each chain's consensus parameters (Zcash and its forks 200,9;
 * Bitcoin Gold and BitcoinZ 144,5; Zclassic and Ycash after their forks 192,7; Flux's ZelHash 125,4).
 * A currency missing here gets no length check beyond its own compactSize prefix: a guessed length
 * would refuse every share of a coin that differs.
 */
export interface EquihashParams {
  readonly n: number;
  readonly k: number;
}

const PARAMS: Readonly<Record<string, EquihashParams>> = {
  ZEC: { n: 200, k: 9 },
  ZEN: { n: 200, k: 9 },
  KMD: { n: 200, k: 9 },
  ARRR: { n: 200, k: 9 },
  BTG: { n: 144, k: 5 },
  BTCZ: { n: 144, k: 5 },
  ZCL: { n: 192, k: 7 },
  YEC: { n: 192, k: 7 },
  FLUX: { n: 125, k: 4 },
};

export function paramsOf(currency: string): EquihashParams | null {
  return PARAMS[currency.trim().toUpperCase()] ?? null;
}

/** Bytes of a solution without its length prefix (1344 for 200,9). */
export function solutionBytes(p: EquihashParams): number {
  return (2 ** p.k * (p.n / (p.k + 1) + 1)) / 8;
}
