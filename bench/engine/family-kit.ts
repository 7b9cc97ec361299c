/**
 * What the family benchmarks need to know about one protocol family: its catalogue coin, the miner
 * dialect the load generator speaks, and a test pool that trusts shares (verifying pools hash every
 * share, which would measure the pool instead of the proxy).
 */
import type { FamilyName } from "../../appliance/catalog/categories.ts";
import type { MinerProtocol } from "./family-fleet.ts";

export interface BenchPool {
  readonly port: number;
  readonly address: string;
  /** Σ credited work of accepted shares, in the pool's own units */
  totalWork(): number;
  stop(): void;
}

export interface FamilyKit {
  /** the key of engine/stratum/families.ts; a kit whose family is not registered is skipped */
  family: FamilyName;
  /** how the figures name it, with the dialect measured */
  label: string;
  currency: string;
  category: string;
  /** the main pool's difficulty in the dialect's units; the fee pool runs at twice it */
  difficulty: number;
  protocol: MinerProtocol;
  startPool(opts: { difficulty: number; jobIntervalMs: number }): Promise<BenchPool>;
}
