/** A winning share turned into the block submitblock takes: header, count, coinbase, the template's transactions. */
import { sha256d } from "../../engine/stratum/bitcoin/pow.ts";
import { witnessCoinbase } from "./coinbase.ts";
import type { PoolJob } from "./job.ts";
import { varint } from "./serialize.ts";

export function assembleBlock(job: PoolJob, header: Uint8Array, coinbaseHex: string): string {
  const coinbase = job.coinbase.witness ? witnessCoinbase(coinbaseHex) : coinbaseHex;
  const txs = job.template.transactions.map((t) => t.data).join("");
  return `${Buffer.from(header).toString("hex")}${varint(job.template.transactions.length + 1)}${coinbase}${txs}`;
}

/** A block's id as RPC prints it: sha256d of the header, display order (also for scrypt coins). */
export const blockHash = (header: Uint8Array): string =>
  Buffer.from(sha256d(header)).reverse().toString("hex");
