/**
 * What the Ethereum test pool knows about one connection, and the narrow view of the pool that the two
 * dialect handlers (pool-ethproxy.ts, pool-nicehash.ts) work through.
 */
import type { EthJob } from "./eth-job.ts";
import type { Dialect } from "./methods.ts";
import type { RejectReason } from "./rejects.ts";

/** A job as one connection received it: the target and credit it was sent with, and (ES1) the prefix. */
export interface Grant {
  job: EthJob;
  target: bigint;
  /** credit of an accepted share, in diff-1 shares (see difficulty.ts) */
  work: number;
  /** EthereumStratum/1.0.0 extranonce prefix in force when the job was sent; "" for ETHPROXY */
  extranonce: string;
  /** the dialect of the connection the job was sent on */
  dialect: Dialect;
}

export interface PoolConn {
  readonly id: number;
  write(line: string): void;
  /** null until the first message that names a dialect */
  dialect: Dialect | null;
  difficulty: number;
  /** jobs sent to this connection, by job id; cleared with every new block */
  grants: Map<string, Grant>;
  lastGrant: Grant | null;
  /** ETHPROXY: the eth_submitLogin account, and the top-level worker it came with */
  login: string | null;
  loginWorker: string | null;
  /** EthereumStratum/1.0.0 */
  subscribed: boolean;
  extranonceSubscribed: boolean;
  authorized: Set<string>;
  extranonce: string;
  /** the last mining.set_difficulty sent, so a job is preceded by one only when it changed */
  sentDifficulty: number | null;
}

export interface Share {
  worker: string;
  grant: Grant;
  nonce: bigint;
  /** the submitted mix digest (ETHPROXY); null where the dialect submits none */
  mix: Uint8Array | null;
}

export interface PoolCore {
  readonly jobsPaused: boolean;
  currentJob(): EthJob;
  jobById(id: string): EthJob | undefined;
  jobByHeader(headerHex: string): EthJob | undefined;
  /** records that the job goes out to the connection now, with the connection's current terms */
  grant(c: PoolConn, job: EthJob): Grant;
  /** the grant of a job that is still current (not from an earlier block) and was sent to this connection */
  liveGrant(c: PoolConn, job: EthJob | undefined): Grant | undefined;
  /** duplicate check, hash verification and crediting; null when accepted */
  judge(share: Share): RejectReason | null;
  reject(reason: RejectReason): RejectReason;
  recordHashrate(worker: string, rate: bigint): void;
}
