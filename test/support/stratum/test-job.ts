/**
 * Real Bitcoin-style jobs for the test pool: a coinbase whose scriptSig length byte counts the
 * extranonce bytes, a merkle branch of random transaction hashes, version, nbits and ntime.
 */
import { randomBytes } from "node:crypto";

export interface TestJob {
  jobId: string;
  prevHash: string;
  coinb1: string;
  coinb2: string;
  merkleBranch: string[];
  version: string;
  nbits: string;
  ntime: string;
  /** block number the job belongs to; jobs of older blocks are stale */
  block: number;
}

const le = (n: number, bytes: number): string => {
  const b = Buffer.alloc(Math.max(8, bytes));
  b.writeBigUInt64LE(BigInt(n) & 0xffffffffffffffffn, 0);
  return b.toString("hex", 0, bytes);
};

export function buildJob(
  jobId: string,
  block: number,
  prevHash: string,
  extranonceBytes: number,
  branchCount: number,
): TestJob {
  // scriptSig = BIP34 height push ‖ extranonce1 ‖ extranonce2 ‖ tag
  const heightPush = `03${le(block, 3)}`;
  const tag = Buffer.from("/pithead-test/").toString("hex");
  const scriptLen = heightPush.length / 2 + extranonceBytes + tag.length / 2;
  const coinb1 = `01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff${le(scriptLen, 1)}${heightPush}`;
  const payout = `76a914${randomBytes(20).toString("hex")}88ac`;
  const coinb2 = `${tag}ffffffff01${le(625000000, 8)}${le(payout.length / 2, 1)}${payout}00000000`;
  const merkleBranch = Array.from({ length: branchCount }, () => randomBytes(32).toString("hex"));
  return {
    jobId,
    prevHash,
    coinb1,
    coinb2,
    merkleBranch,
    version: "20000000",
    nbits: "1d00ffff",
    ntime: Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, "0"),
    block,
  };
}
