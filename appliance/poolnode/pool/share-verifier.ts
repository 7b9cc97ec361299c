/**
 * Verifies one mining.submit against its job by hashing it, as a pool must (the proxy trusts its
 * pool; a pool trusts nobody): the header is rebuilt from the job and the miner's extranonce2, ntime
 * and nonce, hashed with the coin's PoW, and compared with the share target and the network target.
 */
import { ErrorCode, StratumError } from "../../engine/stratum/bitcoin/errors.ts";
import type { Submit } from "../../engine/stratum/bitcoin/messages.ts";
import { buildHeader, headerHash, rollVersion } from "../../engine/stratum/bitcoin/pow.ts";
import { type PowAlgorithm, targetForDifficulty } from "../../engine/stratum/bitcoin/target.ts";
import { EXTRANONCE2_BYTES } from "./coinbase.ts";
import type { PoolJob } from "./job.ts";

/** How far past the template's time a miner may roll ntime (the daemon allows two hours). */
const MAX_NTIME_AHEAD = 7200;

export interface ValidShare {
  /** the PoW hash as Bitcoin compares it (little-endian) */
  value: bigint;
  header: Buffer;
  coinbaseHex: string;
  /** the hash also meets the network target: this share is a block */
  block: boolean;
  /** the difficulty the share met and is credited at */
  difficulty: number;
}

export function verifyShare(
  job: PoolJob,
  extranonce1: string,
  submit: Submit,
  /** the difficulty the miner was given for this job */
  difficulty: number,
  algorithm: PowAlgorithm,
  /** the version bits the miner may roll (BIP310), 0 when it did not negotiate any */
  versionMask: number,
): ValidShare | StratumError {
  if (submit.extranonce2.length !== EXTRANONCE2_BYTES * 2)
    return new StratumError(ErrorCode.OTHER, "extranonce2 has the wrong size");
  if (submit.versionBits !== null) {
    if (versionMask === 0) return new StratumError(ErrorCode.OTHER, "version rolling was not negotiated");
    if ((Number.parseInt(submit.versionBits, 16) & ~versionMask) !== 0)
      return new StratumError(ErrorCode.OTHER, "version bits outside the negotiated mask");
  }
  const ntime = Number.parseInt(submit.ntime, 16);
  if (ntime < job.template.mintime || ntime > job.template.curtime + MAX_NTIME_AHEAD)
    return new StratumError(ErrorCode.OTHER, "ntime out of range");
  const key = `${extranonce1}${submit.extranonce2}${submit.ntime}${submit.nonce}${submit.versionBits ?? ""}`;
  if (job.seen.has(key)) return new StratumError(ErrorCode.DUPLICATE, "duplicate share");
  const header = buildHeader({
    coinb1: job.coinbase.coinb1,
    extranonce1,
    extranonce2: submit.extranonce2,
    coinb2: job.coinbase.coinb2,
    merkleBranch: job.merkleBranch,
    prevHash: job.prevHash,
    version: rollVersion(job.version, submit.versionBits, versionMask),
    nbits: job.nbits,
    ntime: submit.ntime,
    nonce: submit.nonce,
  });
  const value = headerHash(header, algorithm);
  if (value > targetForDifficulty(difficulty, algorithm))
    return new StratumError(ErrorCode.LOW_DIFFICULTY, "low difficulty share");
  job.seen.add(key);
  return {
    value,
    header,
    coinbaseHex: job.coinbase.coinb1 + extranonce1 + submit.extranonce2 + job.coinbase.coinb2,
    block: value <= job.networkTarget,
    difficulty,
  };
}
