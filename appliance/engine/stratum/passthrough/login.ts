/**
 * Where the miner names itself in the pass-through coins' login requests, and the login line with
 * the rewritten identity (rewrite.ts rules). Pools of these coins put the user in one of a few
 * places (protocols.md §H and the public miners):
 * - `mining.authorize` params[0] = "wallet.worker" (Ergo, CKB, Nexa, Sia/Handshake, ALEO pools);
 * - `eth_submitLogin` params[0] = "wallet.worker" (ETHPROXY-style pools);
 * - `login` params.login = "wallet.worker" (Grin's stratum);
 * - Dynex (CryptoNote-style `login`): params.login is the wallet and the worker is the stratum
 *   password params.pass (DynexSolve's -stratum-password; the pool shows "x" otherwise);
 * - Conflux (octopus): `mining.subscribe` params[0] names the worker (conflux-rust's stratum).
 * Only the user's string is replaced inside the line, so every other byte of the login stays as the
 * miner sent it (numbers above 2^53, spacing, key order).
 */
import type { Identity } from "../../rewrite.ts";

export type LoginPlace = "param0" | "login" | "login+pass";

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Where this request carries the miner's user, or null when it is not a login of `category`. */
export function loginPlace(category: string, method: string, params: unknown): LoginPlace | null {
  switch (method) {
    case "mining.authorize":
    case "eth_submitLogin":
      return Array.isArray(params) && typeof params[0] === "string" ? "param0" : null;
    case "mining.subscribe":
      return category === "octopus" && Array.isArray(params) && typeof params[0] === "string"
        ? "param0"
        : null;
    case "login":
      if (!isRecord(params) || typeof params.login !== "string") return null;
      return category === "dynexsolve" ? "login+pass" : "login";
    default:
      return null;
  }
}

/** The identity as the miner sent it. */
export function identityAt(place: LoginPlace, params: unknown): Identity {
  const user = place === "param0" ? (params as unknown[])[0] : (params as Record<string, unknown>).login;
  const u = String(user);
  if (place === "login+pass") {
    const pass = (params as Record<string, unknown>).pass;
    return { wallet: u, name: typeof pass === "string" && pass !== "x" ? pass : "" };
  }
  const dot = u.indexOf(".");
  return dot < 0 ? { wallet: u, name: "" } : { wallet: u.slice(0, dot), name: u.slice(dot + 1) };
}

/** The user strings that replace the miner's, field by field. */
export function upstreamFields(place: LoginPlace, id: Identity): { user: string; pass?: string } {
  if (place === "login+pass") return { user: id.wallet, pass: id.name || "x" };
  return { user: id.name ? `${id.wallet}.${id.name}` : id.wallet };
}

/**
 * `text` with the JSON string `from` replaced by `to`, when `from` occurs exactly once as a JSON
 * string literal; null otherwise (the caller then re-serialises the message).
 */
function replaceLiteral(text: string, from: string, to: string): string | null {
  const lit = JSON.stringify(from);
  const at = text.indexOf(lit);
  if (at < 0 || text.indexOf(lit, at + 1) >= 0) return null;
  return text.slice(0, at) + JSON.stringify(to) + text.slice(at + lit.length);
}

/**
 * The login line presenting `id` upstream. `text` is the line without its terminator, `message` its
 * parse; the result keeps the terminator to the caller.
 */
export function rewriteLogin(
  text: string,
  message: Record<string, unknown>,
  place: LoginPlace,
  before: Identity,
  after: Identity,
): string {
  const from = upstreamFields(place, before);
  const to = upstreamFields(place, after);
  const params = message.params;
  const originalUser =
    place === "param0" ? (params as unknown[])[0] : (params as Record<string, unknown>).login;
  const originalPass = (params as Record<string, unknown>).pass;
  let out: string | null = text;
  if (originalUser !== to.user) out = replaceLiteral(out, String(originalUser), to.user);
  if (out !== null && place === "login+pass" && to.pass !== undefined && to.pass !== from.pass) {
    out =
      typeof originalPass === "string"
        ? originalPass === to.user
          ? null
          : replaceLiteral(out, originalPass, to.pass)
        : null;
  }
  if (out !== null) return out;
  // The user also occurs elsewhere in the line (or the password is missing): re-serialise it.
  const copy: Record<string, unknown> = { ...message };
  if (place === "param0") copy.params = [to.user, ...(params as unknown[]).slice(1)];
  else {
    const named: Record<string, unknown> = { ...(params as Record<string, unknown>), login: to.user };
    if (to.pass !== undefined) named.pass = to.pass;
    copy.params = named;
  }
  return JSON.stringify(copy);
}
