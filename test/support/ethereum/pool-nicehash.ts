/**
 * The EthereumStratum/1.0.0 (NiceHash) side of the Ethereum test pool. mining.subscribe answers
 * [["mining.notify", session, "EthereumStratum/1.0.0"], extranonce]; after the first authorize the pool sends
 * mining.set_difficulty then mining.notify [jobId, seedHash, headerHash, clean]. A share is
 * [user, jobId, minernonce]; its full nonce is the extranonce the job was sent with followed by minernonce.
 */
import { bytesToHex, hexOfLength } from "./hex.ts";
import type { Envelope, MessageId } from "./json-lines.ts";
import { NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";
import type { PoolConn, PoolCore } from "./pool-conn.ts";
import { REJECT, type RejectReason } from "./rejects.ts";

const reply = (id: MessageId, result: unknown): string => `${JSON.stringify({ id, result, error: null })}\n`;

export const nicehashError = (id: MessageId, code: number, message: string): string =>
  `${JSON.stringify({ id, result: null, error: [code, message, null] })}\n`;

const refuse = (id: MessageId, reason: RejectReason): string =>
  nicehashError(id, REJECT[reason].code, REJECT[reason].message);

export const notification = (method: string, params: unknown[]): string =>
  `${JSON.stringify({ id: null, method, params })}\n`;

/** Sends a job, preceded by mining.set_difficulty when the connection's difficulty changed since the last. */
export function sendNotify(c: PoolConn, core: PoolCore, clean: boolean, job = core.currentJob()): void {
  if (c.authorized.size === 0 || core.jobsPaused) return;
  if (c.sentDifficulty !== c.difficulty) {
    c.write(notification(NicehashMethod.SET_DIFFICULTY, [c.difficulty]));
    c.sentDifficulty = c.difficulty;
  }
  const g = core.grant(c, job);
  c.write(
    notification(NicehashMethod.NOTIFY, [g.job.id, bytesToHex(g.job.seedHash), g.job.headerHex, clean]),
  );
}

export function onNicehashMessage(c: PoolConn, core: PoolCore, m: Envelope): void {
  const unauthorized = c.authorized.size === 0;
  c.write(answer(c, core, m));
  // Work starts with the first authorized user, after the authorize answer.
  if (unauthorized && c.authorized.size > 0) sendNotify(c, core, true);
}

function answer(c: PoolConn, core: PoolCore, m: Envelope): string {
  switch (m.method) {
    case NicehashMethod.SUBSCRIBE:
      c.subscribed = true;
      return reply(m.id, [
        [NicehashMethod.NOTIFY, c.id.toString(16).padStart(8, "0"), NICEHASH_PROTOCOL],
        c.extranonce,
      ]);
    case NicehashMethod.EXTRANONCE_SUBSCRIBE:
      c.extranonceSubscribed = true;
      return reply(m.id, true);
    case NicehashMethod.AUTHORIZE: {
      if (!c.subscribed) return nicehashError(m.id, 25, "Not subscribed");
      const user = m.params[0];
      if (typeof user !== "string" || user === "") return nicehashError(m.id, 20, "Invalid user");
      c.authorized.add(user);
      return reply(m.id, true);
    }
    case NicehashMethod.SUBMIT:
      return submit(c, core, m);
    default:
      return nicehashError(m.id, 20, "Method not found");
  }
}

function submit(c: PoolConn, core: PoolCore, m: Envelope): string {
  const [user, jobId, minerNonce] = m.params;
  if (m.params.length !== 3 || typeof user !== "string" || typeof jobId !== "string")
    return refuse(m.id, core.reject("malformed"));
  if (!c.authorized.has(user)) return refuse(m.id, core.reject("unauthorized"));
  const grant = core.liveGrant(c, core.jobById(jobId));
  if (grant === undefined) return refuse(m.id, core.reject("stale"));
  const tail = hexOfLength(minerNonce, 16 - grant.extranonce.length);
  if (tail === null) return refuse(m.id, core.reject("malformed"));
  const verdict = core.judge({
    worker: user,
    grant,
    nonce: BigInt(`0x${grant.extranonce}${tail}`),
    mix: null,
  });
  return verdict === null ? reply(m.id, true) : refuse(m.id, verdict);
}
