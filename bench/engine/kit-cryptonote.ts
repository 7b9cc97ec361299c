/**
 * The CryptoNote family in the family benchmarks: xmrig-style miners (login, job, submit) against
 * the CryptoNote test pool with `trustShares` (it judges the claimed result against the target, so
 * an all-zero result passes). A miner keeps blob[42] of each job, as xmrig does when told
 * "nicehash", and counts through the three low nonce bytes, so every share is unique.
 */

import { difficultyOfTarget, parseTarget } from "../../test/support/cryptonote/target.ts";
import { CryptoNoteTestPool } from "../../test/support/cryptonote/test-pool.ts";
import type { MinerProtocol, ProtoMiner, WireMessage } from "./family-fleet.ts";
import type { FamilyKit } from "./family-kit.ts";

/** blob[42], the NiceHash byte, in hex digits */
const BYTE_HEX = 84;
const ZERO_RESULT = "0".repeat(64);
/** both pools must mine one seed, or the proxy does not send miners to the fee pool */
const SEED_HASH = "5eed".repeat(16);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function takeJob(m: ProtoMiner, job: unknown): void {
  if (!isObj(job) || typeof job.blob !== "string" || typeof job.target !== "string") return;
  const target = parseTarget(job.target);
  if (target === null) return;
  m.state.jobId = String(job.job_id);
  m.state.byte = job.blob.slice(BYTE_HEX, BYTE_HEX + 2);
  const difficulty = difficultyOfTarget(target);
  if (difficulty !== m.difficulty) {
    m.difficulty = difficulty;
    m.nextShareAt = 0;
  }
  m.ready = true;
}

const xmrig: MinerProtocol = {
  hello: (m) =>
    `${JSON.stringify({
      id: 1,
      jsonrpc: "2.0",
      method: "login",
      params: { login: m.user, pass: "x", agent: "XMRig/6.21.0 (bench)", algo: ["rx/0"] },
    })}\n`,
  onMessage(m: ProtoMiner, msg: WireMessage): void {
    if (msg.id === 1 && isObj(msg.result)) {
      m.state.rpcId = String(msg.result.id);
      takeJob(m, msg.result.job);
    } else if (msg.method === "job") takeJob(m, msg.params);
  },
  share(m: ProtoMiner, id: number): string {
    // the nonce is 4 little-endian bytes: the counter's low three, then the miner's byte
    const c = m.counter & 0xffffff;
    const low = [c & 0xff, (c >>> 8) & 0xff, c >>> 16].map((b) => b.toString(16).padStart(2, "0")).join("");
    const nonce = low + (m.state.byte ?? "00");
    return `{"id":${id},"jsonrpc":"2.0","method":"submit","params":{"id":"${m.state.rpcId}","job_id":"${m.state.jobId}","nonce":"${nonce}","result":"${ZERO_RESULT}"}}\n`;
  },
};

export const CRYPTONOTE_KIT: FamilyKit = {
  family: "cryptonote",
  label: "CryptoNote (xmrig miners)",
  currency: "XMR",
  category: "randomx",
  // a 4-byte target of a round difficulty; the pools' credit is 2^64 / target, close to it
  difficulty: 1000,
  protocol: xmrig,
  startPool: async ({ difficulty, jobIntervalMs }) =>
    CryptoNoteTestPool.start({ trustShares: true, difficulty, jobIntervalMs, seedHash: SEED_HASH }),
};
