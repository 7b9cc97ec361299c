/**
 * What differs between the Bitcoin-family coins a pool node serves: the PoW of the header and the
 * rules getblocktemplate must be asked with (litecoind 0.21 refuses a template without "mweb").
 */
import type { PowAlgorithm } from "../../engine/stratum/bitcoin/target.ts";

export interface PoolCoin {
  algorithm: PowAlgorithm;
  rules: readonly string[];
}

export const POOL_COINS = {
  BTC: { algorithm: "sha256d", rules: ["segwit"] },
  LTC: { algorithm: "scrypt", rules: ["segwit", "mweb"] },
} as const satisfies Record<string, PoolCoin>;

export type PoolCoinName = keyof typeof POOL_COINS;
