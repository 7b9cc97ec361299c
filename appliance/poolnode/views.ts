/**
 * What the pool node shows of itself, read from its ledger and the running pool: the pool's figures
 * and one miner address's. The console's `project/stats` and `address/info` and the node's public
 * page read the same views.
 */
import { diff1Target, difficultyOfHash } from "../engine/stratum/bitcoin/target.ts";
import { addressWindow } from "./accounting/ledger.ts";
import { POOL_COINS } from "./pool/coins.ts";
import type { PoolNodeService } from "./service.ts";

/** Hashrate and the worker counts look back this far. */
export const RECENT_MS = 10 * 60_000;

export interface PoolStatsView {
  coin: string;
  /** hashes per second over the last RECENT_MS */
  hashrate: number;
  connections: number;
  workers: number;
  addresses: number;
  shares: { accepted: number; rejected: number };
  blocks_found: number;
  network_difficulty: number | null;
  round_work: number;
  /** the round's work over the network difficulty (1 = a block's worth of work on average) */
  effort: number | null;
}

/** The pool's figures; null before a project exists. */
export function poolStats(node: PoolNodeService, now = Date.now()): PoolStatsView | null {
  const p = node.project();
  if (p === null) return null;
  const store = node.store;
  const pool = node.running;
  const algorithm = POOL_COINS[p.coin].algorithm;
  const recent = store.recentWork(now - RECENT_MS);
  const work = recent.reduce((sum, w) => sum + w.work, 0);
  // hashes per unit of work: 2^256 over the coin's difficulty-1 target
  const hashesPerWork = 2 ** 256 / Number(diff1Target(algorithm));
  const target = pool?.currentJob?.template.target;
  const networkDifficulty = target === undefined ? null : difficultyOfHash(BigInt(`0x${target}`), algorithm);
  const roundWork = store.workSinceLastBlock();
  return {
    coin: p.coin,
    hashrate: (work * hashesPerWork) / (RECENT_MS / 1000),
    connections: pool?.connections ?? 0,
    workers: recent.length,
    addresses: new Set(recent.map((w) => w.address)).size,
    shares: {
      accepted: pool?.stats.accepted ?? 0,
      rejected: [...(pool?.stats.rejected.values() ?? [])].reduce((a, b) => a + b, 0),
    },
    blocks_found: store.blockCount(),
    network_difficulty: networkDifficulty,
    round_work: roundWork,
    effort: networkDifficulty === null || networkDifficulty === 0 ? null : roundWork / networkDifficulty,
  };
}

export interface AddressView {
  address: string;
  /** base units */
  balance: number;
  paid: number;
  window: { shares: number; work: number };
  workers: { worker: string; work: number; shares: number; last_share_at: number }[];
}

/**
 * One miner address: its balance, what it was paid, its part of the current PPLNS window (summed by
 * the window worker, which refuses with WorkerBusy when too many lookups wait) and its workers.
 */
export async function addressView(
  node: PoolNodeService,
  address: string,
  now = Date.now(),
): Promise<AddressView> {
  const store = node.store;
  const window = await addressWindow(store, address, node.project()?.pplns_window ?? 0);
  const { balance, paid } = store.balance(address);
  return {
    address,
    balance,
    paid,
    window,
    workers: store.recentWork(now - RECENT_MS, address).map((w) => ({
      worker: w.worker,
      work: w.work,
      shares: w.shares,
      last_share_at: w.last,
    })),
  };
}
