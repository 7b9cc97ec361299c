/**
 * The ETHPROXY side of the Ethereum test pool: eth_submitLogin, eth_getWork, eth_submitWork and
 * eth_submitHashrate, answered JSON-RPC 2.0 style; new work is pushed as a response with id 0. A rejected share
 * is answered `result: false` with an `error: {code, message}` naming the reason.
 */
import { bigIntToHex, bytesToHex, hexOfLength, hexToBytes } from "./hex.ts";
import type { Envelope, MessageId } from "./json-lines.ts";
import { ETHPROXY_PUSH_ID, EthproxyMethod } from "./methods.ts";
import type { Grant, PoolConn, PoolCore } from "./pool-conn.ts";
import { REJECT, type RejectReason } from "./rejects.ts";

const reply = (id: MessageId, result: unknown): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", result })}\n`;

export const ethproxyError = (id: MessageId, code: number, message: string): string =>
  `${JSON.stringify({ id, jsonrpc: "2.0", result: false, error: { code, message } })}\n`;

const refuse = (id: MessageId, reason: RejectReason): string =>
  ethproxyError(id, REJECT[reason].code, REJECT[reason].message);

/** [header hash, seed hash, boundary, block number], all 0x-hex, as eth_getWork answers. */
export const workArray = (g: Grant): string[] => [
  `0x${g.job.headerHex}`,
  `0x${bytesToHex(g.job.seedHash)}`,
  `0x${bigIntToHex(g.target, 32)}`,
  `0x${g.job.blockNumber.toString(16)}`,
];

/**
 * The name work is credited to: the account (login up to the first dot) and a rig, taken from the request's
 * top-level worker, else from "account.rig" in the login, else from the login's top-level worker.
 */
export function ethproxyWorkerName(
  login: string,
  requestWorker: string | null,
  loginWorker: string | null,
): string {
  const dot = login.indexOf(".");
  const account = dot < 0 ? login : login.slice(0, dot);
  const rig = requestWorker ?? (dot < 0 ? null : login.slice(dot + 1)) ?? loginWorker;
  return rig ? `${account}.${rig}` : account;
}

export function pushWork(c: PoolConn, core: PoolCore, job = core.currentJob()): void {
  if (c.login === null || core.jobsPaused) return;
  c.write(reply(ETHPROXY_PUSH_ID, workArray(core.grant(c, job))));
}

export function onEthproxyMessage(c: PoolConn, core: PoolCore, m: Envelope): void {
  c.write(answer(c, core, m));
}

function answer(c: PoolConn, core: PoolCore, m: Envelope): string {
  switch (m.method) {
    case EthproxyMethod.SUBMIT_LOGIN: {
      const login = m.params[0];
      if (typeof login !== "string" || login === "") return ethproxyError(m.id, -1, "Invalid login");
      c.login = login;
      c.loginWorker = m.worker;
      return reply(m.id, true);
    }
    case EthproxyMethod.GET_WORK: {
      if (c.login === null) return ethproxyError(m.id, REJECT.unauthorized.code, "Not logged in");
      // A stuck pool keeps repeating the last work it gave out instead of any newer one.
      const grant = core.jobsPaused ? c.lastGrant : core.grant(c, core.currentJob());
      if (grant === null) return ethproxyError(m.id, 0, "Work not ready");
      return reply(m.id, workArray(grant));
    }
    case EthproxyMethod.SUBMIT_WORK:
      return submitWork(c, core, m);
    case EthproxyMethod.SUBMIT_HASHRATE: {
      const rate = typeof m.params[0] === "string" ? hexOfLength(m.params[0], 64) : null;
      if (c.login === null || rate === null) return ethproxyError(m.id, -1, "Invalid hashrate");
      core.recordHashrate(ethproxyWorkerName(c.login, m.worker, c.loginWorker), BigInt(`0x${rate}`));
      return reply(m.id, true);
    }
    default:
      return ethproxyError(m.id, -32601, "Method not found");
  }
}

function submitWork(c: PoolConn, core: PoolCore, m: Envelope): string {
  const nonce = hexOfLength(m.params[0], 16);
  const header = hexOfLength(m.params[1], 64);
  const mix = hexOfLength(m.params[2], 64);
  if (m.params.length !== 3 || nonce === null || header === null || mix === null)
    return refuse(m.id, core.reject("malformed"));
  if (c.login === null) return refuse(m.id, core.reject("unauthorized"));
  const grant = core.liveGrant(c, core.jobByHeader(header));
  if (grant === undefined) return refuse(m.id, core.reject("stale"));
  const verdict = core.judge({
    worker: ethproxyWorkerName(c.login, m.worker, c.loginWorker),
    grant,
    nonce: BigInt(`0x${nonce}`),
    mix: hexToBytes(mix),
  });
  return verdict === null ? reply(m.id, true) : refuse(m.id, verdict);
}
