/**
 * SOCKS5 front-end (RFC 1928) for a port whose miners reach "the pool" through a SOCKS proxy setting
 * in their firmware: the handshake is answered here and the stream that follows is served as this
 * port's stratum, whatever destination the miner asked for. Only CONNECT and the no-authentication
 * method are implemented; anything else gets the RFC's reply code and the connection closes.
 */

import type { ByteSocket } from "./line-writer.ts";
import type { ConnectionHooks } from "./listener.ts";

const VERSION = 5;
const NO_AUTH = 0x00;
const NO_ACCEPTABLE_METHOD = 0xff;
const CONNECT = 0x01;
/** RFC 1928 §6 reply codes */
const REPLY = { succeeded: 0x00, commandNotSupported: 0x07, addressTypeNotSupported: 0x08 } as const;
const ATYP = { ipv4: 0x01, domain: 0x03, ipv6: 0x04 } as const;
/** a greeting or request is a few dozen bytes; a client that sends more before the reply is not SOCKS */
const MAX_HANDSHAKE_BYTES = 600;
/** a client that opens the connection and never completes the handshake holds nothing for long */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

type Stage = "greeting" | "request" | "open";

export interface SocksGate<T> {
  socket: ByteSocket;
  ip: string;
  stage: Stage;
  pending: Uint8Array;
  inner: T | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** What a complete handshake message is: its length, or 0 while more bytes are needed, or an error. */
type Parsed = { need: 0 } | { length: number; reply: Uint8Array; ok: boolean };

function parseGreeting(b: Uint8Array): Parsed {
  if (b.length < 2) return { need: 0 };
  if (b[0] !== VERSION)
    return { length: b.length, reply: Uint8Array.of(VERSION, NO_ACCEPTABLE_METHOD), ok: false };
  const n = b[1] as number;
  if (b.length < 2 + n) return { need: 0 };
  const methods = b.subarray(2, 2 + n);
  const ok = methods.includes(NO_AUTH);
  return { length: 2 + n, reply: Uint8Array.of(VERSION, ok ? NO_AUTH : NO_ACCEPTABLE_METHOD), ok };
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

/**
 * Wraps a port's connection hooks: `open` of the port runs once the CONNECT succeeded (so the
 * connection limit counts miners, not half-open handshakes), and every byte after the handshake
 * reaches the port unchanged.
 */
export function socks5Front<T>(
  hooks: ConnectionHooks<T>,
  log: (message: string) => void,
): ConnectionHooks<SocksGate<T>> {
  const fail = (g: SocksGate<T>, bytes: Uint8Array, why: string) => {
    g.socket.write(bytes);
    g.socket.end();
    log(`SOCKS5 ${g.ip}: ${why}`);
  };
  const advance = (g: SocksGate<T>): void => {
    while (g.stage !== "open") {
      const p = g.stage === "greeting" ? parseGreeting(g.pending) : parseRequest(g.pending);
      if (!("length" in p)) {
        if (g.pending.length > MAX_HANDSHAKE_BYTES)
          fail(g, reply(REPLY.commandNotSupported), "handshake too long");
        return;
      }
      if (!p.ok) {
        fail(
          g,
          p.reply,
          g.stage === "greeting"
            ? "no acceptable authentication method (only no-auth is offered)"
            : "not a CONNECT request",
        );
        g.pending = new Uint8Array(0);
        return;
      }
      g.socket.write(p.reply);
      g.pending = g.pending.subarray(p.length);
      if (g.stage === "greeting") {
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
