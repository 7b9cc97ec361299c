/**
 * Forward (the NGINX coin): a plain TCP relay from the port to the target pool, no parsing. Only
 * the port, the connection limit, the IP blacklist, the listening protocol and the pool apply.
 */
import type { Socket } from "bun";
import type { Endpoint } from "./endpoint.ts";
import type { ByteSocket } from "./line-writer.ts";
import { type ConnectionHooks, type RunningListener, startListener } from "./listener.ts";

/** Bytes buffered toward a side that is not reading before the pair is dropped. */
const MAX_BUFFERED = 1024 * 1024;

interface Pair {
  client: ByteSocket;
  ip: string;
  upstream: Socket<undefined> | null;
  toUpstream: Uint8Array[];
  buffered: number;
  closed: boolean;
}

export interface ForwardHooks {
  /** counts the connection when it returns true */
  admit(ip: string): boolean;
  closed(ip: string): void;
  log(message: string): void;
}

export function startForward(
  hostname: string,
  port: number,
  protocol: number,
  tls: () => { cert: string; key: string },
  target: () => Endpoint | null,
  hooks: ForwardHooks,
): RunningListener {
  const end = (p: Pair) => {
    if (p.closed) return;
    p.closed = true;
    p.client.end();
    p.upstream?.end();
    hooks.closed(p.ip);
  };
  const connection: ConnectionHooks<Pair> = {
    open: (client, ip) => {
      const ep = target();
      if (ep === null || !hooks.admit(ip)) return null;
      const p: Pair = { client, ip, upstream: null, toUpstream: [], buffered: 0, closed: false };
      const attach = (u: Socket<undefined>) => {
        if (p.closed) {
          u.end();
          return;
        }
        p.upstream = u;
        for (const c of p.toUpstream) u.write(c);
        p.toUpstream = [];
      };
      Bun.connect({
        hostname: ep.host,
        port: ep.port,
        ...(ep.tls ? { tls: { rejectUnauthorized: false } } : {}),
        socket: {
          // Bun drops TLS writes made before the handshake completes.
          handshake: (u) => attach(u),
          data: (_u, chunk) => {
            if (!p.closed) p.client.write(chunk);
          },
          close: () => end(p),
          error: () => end(p),
        },
      }).then(
        (u) => {
          if (!ep.tls) attach(u);
        },
        (e: Error) => {
          hooks.log(`forward to ${ep.host}:${ep.port} failed: ${e.message}`);
          end(p);
        },
      );
      return p;
    },
    data: (p, chunk) => {
      if (p.upstream !== null) {
        p.upstream.write(chunk);
        return;
      }
      p.buffered += chunk.length;
      if (p.buffered > MAX_BUFFERED) return end(p);
      p.toUpstream.push(new Uint8Array(chunk));
    },
    drain: () => {},
    close: (p) => end(p),
  };
  return startListener(hostname, port, protocol, tls, connection);
}
