/**
 * Work as an Ethereum pool hands it out: a header hash (the seal hash of a block the pool would build; random
 * here, since the test pool never finds blocks), the seed hash of the block's epoch and the block number.
 * The id names the job in EthereumStratum/1.0.0; ETHPROXY names it by its header hash.
 */
import { randomBytes } from "node:crypto";
import { bytesToHex } from "./hex.ts";

export interface EthJob {
  id: string;
  headerHash: Uint8Array;
  /** lower-case hex without 0x, the key ETHPROXY submissions are matched by */
  headerHex: string;
  seedHash: Uint8Array;
  blockNumber: number;
}

export function makeJob(id: string, seedHash: Uint8Array, blockNumber: number): EthJob {
  const headerHash = new Uint8Array(randomBytes(32));
  return { id, headerHash, headerHex: bytesToHex(headerHash), seedHash, blockNumber };
}
