/**
 * A winning share turned into the block submitblock takes: header, count, coinbase, the template's
 * transactions, and on Litecoin once MWEB is active its extension block. The daemon builds all of MWEB's
 * part: the HogEx is the template's last transaction (so it is in the merkle tree and the witness
 * commitment like any other), and `mweb` is the extension block, which the block carries after the
 * transactions as an optional field: a 0x01 "present" byte, then its bytes.
 */
import { sha256d } from "../../engine/stratum/bitcoin/pow.ts";
import { witnessCoinbase } from "./coinbase.ts";
import type { PoolJob } from "./job.ts";
import { varint } from "./serialize.ts";

export function assembleBlock(job: PoolJob, header: Uint8Array, coinbaseHex: string): string {
  const coinbase = job.coinbase.witness ? witnessCoinbase(coinbaseHex) : coinbaseHex;
  const txs = job.template.transactions.map((t) => t.data).join("");
  const mweb = job.template.mweb === undefined ? "" : `01${job.template.mweb}`;
  return `${Buffer.from(header).toString("hex")}${varint(job.template.transactions.length + 1)}${coinbase}${txs}${mweb}`;
}

/** A block's id as RPC prints it: sha256d of the header, display order (also for scrypt coins). */
export const blockHash = (header: Uint8Array): string =>
  Buffer.from(sha256d(header)).reverse().toString("hex");
