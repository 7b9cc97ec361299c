/**
 * SOCKS5 front-end (RFC 1928) for a port whose miners reach "the pool" through a SOCKS proxy setting
 * in their firmware: the handshake is answered here and the stream that follows is served as this
 * port's stratum, whatever destination the miner asked for. Only CONNECT is implemented; the method
 * is no-authentication, or RFC 1929 username/password when the port has credentials (then only that).
 * Anything else gets the RFC's reply code and the connection closes.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import type { SocksCredentials } from "../../domain/transports.ts";
import type { ByteSocket } from "./line-writer.ts";
import type { ConnectionHooks } from "./listener.ts";
import { RefusalLog } from "./refusal-log.ts";

const VERSION = 5;
const NO_AUTH = 0x00;
const USER_PASSWORD = 0x02;
const NO_ACCEPTABLE_METHOD = 0xff;
/** RFC 1929 sub-negotiation version and its status codes (any non-zero status is a failure) */
const AUTH_VERSION = 0x01;
const AUTH_OK = 0x00;
const AUTH_FAILED = 0x01;
const CONNECT = 0x01;
/** RFC 1928 §6 reply codes */
const REPLY = { succeeded: 0x00, commandNotSupported: 0x07, addressTypeNotSupported: 0x08 } as const;
const ATYP = { ipv4: 0x01, domain: 0x03, ipv6: 0x04 } as const;
/** a greeting or request is a few dozen bytes; a client that sends more before the reply is not SOCKS */
const MAX_HANDSHAKE_BYTES = 600;
/** a client that opens the connection and never completes the handshake holds nothing for long */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

type Stage = "greeting" | "auth" | "request" | "open";

export interface SocksGate<T> {
  socket: ByteSocket;
  ip: string;
  stage: Stage;
  /** the port's credentials when the greeting arrived; null: no authentication */
  credentials: SocksCredentials | null;
  pending: Uint8Array;
  inner: T | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** What a complete handshake message is: its length, or 0 while more bytes are needed, or an error. */
type Parsed = { need: 0 } | { length: number; reply: Uint8Array; ok: boolean };

/** The client lists the methods it offers; the one method this port takes must be among them. */
function parseGreeting(b: Uint8Array, method: number): Parsed {
  if (b.length < 2) return { need: 0 };
  if (b[0] !== VERSION)
    return { length: b.length, reply: Uint8Array.of(VERSION, NO_ACCEPTABLE_METHOD), ok: false };
  const n = b[1] as number;
  if (b.length < 2 + n) return { need: 0 };
  const methods = b.subarray(2, 2 + n);
  const ok = methods.includes(method);
  return { length: 2 + n, reply: Uint8Array.of(VERSION, ok ? method : NO_ACCEPTABLE_METHOD), ok };
}

/** Equal in time independent of where they differ (digests make the lengths equal too). */
const sameSecret = (a: Uint8Array, b: string): boolean =>
  timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());

/** RFC 1929: VER 1, ULEN, UNAME, PLEN, PASSWD. */
function parseAuth(b: Uint8Array, c: SocksCredentials): Parsed {
  if (b.length < 2) return { need: 0 };
  const failed = Uint8Array.of(AUTH_VERSION, AUTH_FAILED);
  if (b[0] !== AUTH_VERSION) return { length: b.length, reply: failed, ok: false };
  const ulen = b[1] as number;
  if (b.length < 3 + ulen) return { need: 0 };
  const plen = b[2 + ulen] as number;
  const length = 3 + ulen + plen;
  if (b.length < length) return { need: 0 };
  // both compared, so a wrong user name takes as long as a wrong password
  const userOk = sameSecret(b.subarray(2, 2 + ulen), c.user);
  const passwordOk = sameSecret(b.subarray(3 + ulen, length), c.password);
  const ok = userOk && passwordOk;
  return { length, reply: ok ? Uint8Array.of(AUTH_VERSION, AUTH_OK) : failed, ok };
}

/** A reply with BND.ADDR 0.0.0.0:0: the miner's firmware only checks the code. */
const reply = (code: number): Uint8Array => Uint8Array.of(VERSION, code, 0, ATYP.ipv4, 0, 0, 0, 0, 0, 0);

function parseRequest(b: Uint8Array): Parsed {
  if (b.length < 5) return { need: 0 };
  const atyp = b[3];
  let addrLen: number;
  if (atyp === ATYP.ipv4) addrLen = 4;
  else if (atyp === ATYP.ipv6) addrLen = 16;
  else if (atyp === ATYP.domain) addrLen = 1 + (b[4] as number);
  else return { length: b.length, reply: reply(REPLY.addressTypeNotSupported), ok: false };
  const length = 4 + addrLen + 2;
  if (b.length < length) return { need: 0 };
  if (b[0] !== VERSION || b[1] !== CONNECT)
    return { length, reply: reply(REPLY.commandNotSupported), ok: false };
  return { length, reply: reply(REPLY.succeeded), ok: true };
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return new Uint8Array(b);
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

const REFUSED: Record<Exclude<Stage, "open">, (g: { credentials: SocksCredentials | null }) => string> = {
  greeting: (g) =>
    g.credentials === null
      ? "no acceptable authentication method (only no-auth is offered)"
      : "no acceptable authentication method (this port requires username/password)",
  auth: () => "wrong username or password",
  request: () => "not a CONNECT request",
};

/**
 * Wraps a port's connection hooks: `open` of the port runs once the CONNECT succeeded (so the
 * connection limit counts miners, not half-open handshakes), and every byte after the handshake
 * reaches the port unchanged. `credentials` is read as each connection opens, so an edited port
 * takes new ones without restarting its listener.
 */
export function socks5Front<T>(
  hooks: ConnectionHooks<T>,
  log: (message: string) => void,
  credentials: () => SocksCredentials | null,
): ConnectionHooks<SocksGate<T>> {
  const refusals = new RefusalLog("SOCKS5", log);
  const fail = (g: SocksGate<T>, bytes: Uint8Array, why: string) => {
    g.socket.write(bytes);
    g.socket.end();
    refusals.refused(g.ip, why);
  };
  const parse = (g: SocksGate<T>): Parsed => {
    if (g.stage === "greeting") return parseGreeting(g.pending, g.credentials ? USER_PASSWORD : NO_AUTH);
    if (g.stage === "auth" && g.credentials !== null) return parseAuth(g.pending, g.credentials);
    return parseRequest(g.pending);
  };
  const advance = (g: SocksGate<T>): void => {
    while (g.stage !== "open") {
      const p = parse(g);
      if (!("length" in p)) {
        if (g.pending.length > MAX_HANDSHAKE_BYTES)
          fail(g, reply(REPLY.commandNotSupported), "handshake too long");
        return;
      }
      if (!p.ok) {
        fail(g, p.reply, REFUSED[g.stage](g));
        g.pending = new Uint8Array(0);
        return;
      }
      g.socket.write(p.reply);
      g.pending = g.pending.subarray(p.length);
      if (g.stage === "greeting") {
        g.stage = g.credentials ? "auth" : "request";
        continue;
      }
      if (g.stage === "auth") {
        g.stage = "request";
        continue;
      }
      g.stage = "open";
      if (g.timer) clearTimeout(g.timer);
      g.timer = null;
      const inner = hooks.open(g.socket, g.ip);
      if (inner === null) {
        g.socket.end();
        return;
      }
      g.inner = inner;
      const rest = g.pending;
      g.pending = new Uint8Array(0);
      if (rest.length > 0) hooks.data(inner, rest);
    }
  };
  return {
    open: (socket, ip) => {
      const g: SocksGate<T> = {
        socket,
        ip,
        stage: "greeting",
        credentials: credentials(),
        pending: new Uint8Array(0),
        inner: null,
        timer: null,
      };
      g.timer = setTimeout(() => {
        g.timer = null;
        if (g.stage !== "open") fail(g, new Uint8Array(0), "handshake not completed in time");
      }, HANDSHAKE_TIMEOUT_MS);
      return g;
    },
    data: (g, chunk) => {
      if (g.inner !== null) {
        hooks.data(g.inner, chunk);
        return;
      }
      if (g.stage === "open") return; // refused by the port; the socket is closing
      g.pending = concat(g.pending, chunk);
      advance(g);
    },
    drain: (g) => {
      if (g.inner !== null) hooks.drain(g.inner);
    },
    close: (g) => {
      if (g.timer) clearTimeout(g.timer);
      g.timer = null;
      if (g.inner !== null) hooks.close(g.inner);
      g.inner = null;
    },
  };
}
