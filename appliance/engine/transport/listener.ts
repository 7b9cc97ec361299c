/**
 * Port listeners: TCP (0), SSL (1, the appliance's certificate) and TTS (3), where plain and TLS
 * clients share one port and are told apart by their first byte (0x16 starts a TLS handshake).
 * TTS relays TLS clients over loopback to an internal TLS listener so that one code path serves
 * both; the client's real address travels with the relay.
 */
import type { Socket, TCPSocketListener } from "bun";
import { ListenProtocol } from "../../domain/port.ts";
import type { ByteSocket } from "./line-writer.ts";

/** What a port does with a connection; `open` returns null to refuse it (the socket is closed). */
export interface ConnectionHooks<T> {
  /** `tunnelled`: the connection is a stream of an RMS tunnel, not a socket of its own */
  open(socket: ByteSocket, ip: string, tunnelled?: boolean): T | null;
  data(state: T, chunk: Uint8Array): void;
  drain(state: T): void;
  close(state: T): void;
}

export interface RunningListener {
  readonly port: number;
  stop(): void;
}

const TLS_HANDSHAKE = 0x16;

const V4_MAPPED = "::ffff:";
/** The peer's address, an IPv4-mapped IPv6 one as plain IPv4 (no regex: a literal makes a RegExp object a call). */
const ipOf = (s: { remoteAddress: string }): string => {
  const a = s.remoteAddress;
  return a.startsWith(V4_MAPPED) ? a.slice(V4_MAPPED.length) : a;
};

function listen<T>(
  hostname: string,
  port: number,
  tls: { cert: string; key: string } | null,
  hooks: ConnectionHooks<T>,
  realIp: (s: Socket<T | null>) => string,
): TCPSocketListener<T | null> {
  // The socket's data is the port's state for it: no wrapper object per connection.
  const finish = (s: Socket<T | null>) => {
    const st = s.data;
    s.data = null;
    if (st !== null) hooks.close(st);
  };
  return Bun.listen<T | null>({
    hostname,
    port,
    ...(tls ? { tls } : {}),
    socket: {
      open: (s) => {
        s.data = null;
        const st = hooks.open(s, realIp(s));
        if (st === null) s.end();
        else s.data = st;
      },
      data: (s, chunk) => {
        if (s.data !== null) hooks.data(s.data, chunk);
      },
      drain: (s) => {
        if (s.data !== null) hooks.drain(s.data);
      },
      close: finish,
      error: finish,
    },
  });
}

export function startListener<T>(
  hostname: string,
  port: number,
  protocol: number,
  tls: () => { cert: string; key: string },
  hooks: ConnectionHooks<T>,
): RunningListener {
  if (protocol === ListenProtocol.SSL) {
    const l = listen(hostname, port, tls(), hooks, ipOf);
    return { port: l.port, stop: () => l.stop(true) };
  }
  if (protocol !== ListenProtocol.TTS) {
    const l = listen(hostname, port, null, hooks, ipOf);
    return { port: l.port, stop: () => l.stop(true) };
  }
  return startTts(hostname, port, tls(), hooks);
}

interface Sniff<T> {
  decided: boolean;
  /** plain client: the port's state for it */
  state: T | null;
  /** TLS client: the loopback relay to the internal TLS listener */
  relay: Socket<undefined> | null;
  buffered: Uint8Array[];
}

function startTts<T>(
  hostname: string,
  port: number,
  tls: { cert: string; key: string },
  hooks: ConnectionHooks<T>,
): RunningListener {
  // relay socket's local port → the TLS client's real address
  const relayIps = new Map<number, string>();
  const inner = listen("127.0.0.1", 0, tls, hooks, (s) => relayIps.get(s.remotePort) ?? "127.0.0.1");
  const open = new Set<Socket<Sniff<T>>>();
  const finish = (s: Socket<Sniff<T>>) => {
    open.delete(s);
    const d = s.data;
    if (d.relay !== null) {
      relayIps.delete(d.relay.localPort);
      d.relay.end();
      d.relay = null;
    }
    const st = d.state;
    d.state = null;
    if (st !== null) hooks.close(st);
  };
  const outer = Bun.listen<Sniff<T>>({
    hostname,
    port,
    socket: {
      open: (s) => {
        s.data = { decided: false, state: null, relay: null, buffered: [] };
        open.add(s);
      },
      data: (s, chunk) => {
        const d = s.data;
        if (d.state !== null) {
          hooks.data(d.state, chunk);
          return;
        }
        if (d.relay !== null) {
          d.relay.write(chunk);
          return;
        }
        if (d.decided) {
          d.buffered.push(new Uint8Array(chunk));
          return;
        }
        d.decided = true;
        const ip = ipOf(s);
        if (chunk[0] !== TLS_HANDSHAKE) {
          const st = hooks.open(s, ip);
          if (st === null) {
            s.end();
            return;
          }
          d.state = st;
          hooks.data(st, chunk);
          return;
        }
        d.buffered.push(new Uint8Array(chunk));
        Bun.connect({
          hostname: "127.0.0.1",
          port: inner.port,
          socket: {
            data: (_r, back) => {
              s.write(back);
            },
            close: () => {
              s.end();
            },
            error: () => {
              s.end();
            },
          },
        }).then(
          (relay) => {
            if (!open.has(s)) {
              relay.end();
              return;
            }
            relayIps.set(relay.localPort, ip);
            d.relay = relay;
            for (const b of d.buffered) relay.write(b);
            d.buffered = [];
          },
          () => s.end(),
        );
      },
      drain: (s) => {
        if (s.data.state !== null) hooks.drain(s.data.state);
      },
      close: finish,
      error: finish,
    },
  });
  return {
    port: outer.port,
    stop: () => {
      outer.stop(true);
      inner.stop(true);
      for (const s of [...open]) finish(s);
    },
  };
}
