/**
 * One stratum job built from a block template: the notify fields, the targets, and what is needed
 * to turn a winning share back into the block (the template's transactions, the coinbase parts).
 */
import { hex8 } from "../../engine/stratum/bitcoin/messages.ts";
import type { BlockTemplate } from "../daemon/calls.ts";
import { buildCoinbase, type Coinbase } from "./coinbase.ts";
import { merkleBranch } from "./merkle.ts";
import { reverseHex } from "./serialize.ts";

export interface JobSource {
  payoutScript: string;
  tag: string;
}

/** Stratum's prevhash: the header's bytes (reversed display hex) with each 4-byte word byte-swapped. */
export function stratumPrevHash(displayHex: string): string {
  const b = Buffer.from(reverseHex(displayHex), "hex");
  for (let i = 0; i < 32; i += 4) b.subarray(i, i + 4).reverse();
  return b.toString("hex");
}

export class PoolJob {
  readonly coinbase: Coinbase;
  readonly merkleBranch: string[];
  readonly prevHash: string;
  readonly version: string;
  readonly nbits: string;
  readonly ntime: string;
  readonly networkTarget: bigint;
  /** accepted shares of this job, to refuse the same one twice */
  readonly seen = new Set<string>();

  constructor(
    readonly id: string,
    readonly template: BlockTemplate,
    source: JobSource,
  ) {
    this.coinbase = buildCoinbase({
      height: template.height,
      value: template.coinbasevalue,
      payoutScript: source.payoutScript,
      witnessCommitment: template.default_witness_commitment,
      tag: source.tag,
    });
    this.merkleBranch = merkleBranch(template.transactions.map((t) => t.txid));
    this.prevHash = stratumPrevHash(template.previousblockhash);
    this.version = hex8(template.version);
    this.nbits = template.bits;
    this.ntime = hex8(template.curtime);
    this.networkTarget = BigInt(`0x${template.target}`);
  }

  notifyParams(clean: boolean): unknown[] {
    return [
      this.id,
      this.prevHash,
      this.coinbase.coinb1,
      this.coinbase.coinb2,
      this.merkleBranch,
      this.version,
      this.nbits,
      this.ntime,
      clean,
    ];
  }
}
