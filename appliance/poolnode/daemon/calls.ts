/**
 * The daemon calls the pool node makes, each answer checked with zod so that a daemon of another
 * fork or version that answers differently fails here, by name, rather than deep in job building.
 */
import { z } from "zod";
import type { DaemonRpc } from "./rpc-client.ts";

const hex = z.string().regex(/^[0-9a-f]*$/i);
const hash = hex.length(64);

export const TemplateTransaction = z.object({
  data: hex,
  txid: hash,
  hash: hash,
  fee: z.number().optional(),
});

export const BlockTemplate = z.object({
  version: z.number().int(),
  previousblockhash: hash,
  transactions: z.array(TemplateTransaction),
  coinbasevalue: z.number().int().nonnegative(),
  /** network target, big-endian hex */
  target: hash,
  mintime: z.number().int(),
  curtime: z.number().int(),
  bits: hex.length(8),
  height: z.number().int().positive(),
  longpollid: z.string().optional(),
  default_witness_commitment: hex.optional(),
  /** Litecoin's MWEB extension block, serialized, present once MWEB is active */
  mweb: hex.optional(),
});
export type BlockTemplate = z.infer<typeof BlockTemplate>;

export const BlockchainInfo = z.object({
  chain: z.string(),
  blocks: z.number().int(),
  headers: z.number().int(),
  bestblockhash: hash,
  difficulty: z.number(),
  verificationprogress: z.number(),
  initialblockdownload: z.boolean(),
});
export type BlockchainInfo = z.infer<typeof BlockchainInfo>;

export const AddressValidation = z.object({
  isvalid: z.boolean(),
  address: z.string().optional(),
  scriptPubKey: hex.optional(),
});
export type AddressValidation = z.infer<typeof AddressValidation>;

export const AddressInfo = z.object({
  address: z.string(),
  scriptPubKey: hex,
  ismine: z.boolean(),
});
export type AddressInfo = z.infer<typeof AddressInfo>;

export const BlockSummary = z.object({
  hash: hash,
  height: z.number().int(),
  /** −1 once the block is no longer on the best chain */
  confirmations: z.number().int(),
  tx: z.array(hash),
});
export type BlockSummary = z.infer<typeof BlockSummary>;

/** A wallet transaction as listsinceblock lists it (one entry per output for sends). */
export const WalletEntry = z.object({
  txid: hash,
  category: z.string(),
  comment: z.string().optional(),
  confirmations: z.number().int(),
});
export type WalletEntry = z.infer<typeof WalletEntry>;

/** Typed calls over one daemon connection. */
export class DaemonCalls {
  constructor(readonly rpc: DaemonRpc) {}

  async getBlockTemplate(rules: readonly string[]): Promise<BlockTemplate> {
    return BlockTemplate.parse(await this.rpc.call("getblocktemplate", [{ rules }]));
  }

  /** null when the daemon accepted the block, otherwise its reason ("duplicate", "high-hash", …). */
  async submitBlock(blockHex: string): Promise<string | null> {
    return z
      .string()
      .nullable()
      .parse(await this.rpc.call("submitblock", [blockHex]));
  }

  async getBlockchainInfo(): Promise<BlockchainInfo> {
    return BlockchainInfo.parse(await this.rpc.call("getblockchaininfo"));
  }

  async validateAddress(address: string): Promise<AddressValidation> {
    return AddressValidation.parse(await this.rpc.call("validateaddress", [address]));
  }

  /** Wallet call: only for addresses of the daemon's own wallet (the pool's), not for miners'. */
  async getAddressInfo(address: string): Promise<AddressInfo> {
    return AddressInfo.parse(await this.rpc.call("getaddressinfo", [address]));
  }

  async getBlock(blockHash: string): Promise<BlockSummary> {
    return BlockSummary.parse(await this.rpc.call("getblock", [blockHash, 1]));
  }

  async getBestBlockHash(): Promise<string> {
    return hash.parse(await this.rpc.call("getbestblockhash"));
  }

  /** Pays many addresses in one transaction from the daemon's wallet; the comment stays in the wallet. */
  async sendMany(amounts: Record<string, number>, comment: string): Promise<string> {
    return hash.parse(await this.rpc.call("sendmany", ["", amounts, 1, comment]));
  }

  /** The wallet's transactions in blocks after `blockHash` and in the mempool. */
  async listSinceBlock(blockHash: string): Promise<WalletEntry[]> {
    const r = z
      .object({ transactions: z.array(WalletEntry) })
      .parse(await this.rpc.call("listsinceblock", [blockHash, 1, false, true]));
    return r.transactions;
  }

  async getTransactionConfirmations(txid: string): Promise<number> {
    return z.object({ confirmations: z.number().int() }).parse(await this.rpc.call("gettransaction", [txid]))
      .confirmations;
  }

  async getBlockCount(): Promise<number> {
    return z
      .number()
      .int()
      .parse(await this.rpc.call("getblockcount"));
  }
}
