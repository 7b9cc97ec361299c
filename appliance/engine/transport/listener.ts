/**
 * Port listeners: TCP (0), SSL (1, the appliance's certificate) and TTS (3), where plain and TLS
 * clients share one port and are told apart by their first byte (0x16 starts a TLS handshake).
 * TTS relays TLS clients over loopback to an internal TLS listener so that one code path serves
 * both; the client's real address travels with the relay.
 */
import type { Socket, TCPSocketListener } from "bun";
import { ListenProtocol } from "../../domain/port.ts";

/** What a port does with a connection; `open` returns null to refuse it (the socket is closed). */
export interface ConnectionHooks<T> {
  open(socket: Socket<Slot<T>>, ip: string): T | null;
  data(state: T, chunk: Uint8Array): void;
  drain(state: T): void;
  close(state: T): void;
}

export interface Slot<T> {
  state: T | null;
}

export interface RunningListener {
  readonly port: number;
  stop(): void;
}

const TLS_HANDSHAKE = 0x16;

function listen<T>(
  hostname: string,
  port: number,
  tls: { cert: string; key: string } | null,
  hooks: ConnectionHooks<T>,
  ipOf: (s: Socket<Slot<T>>) => string,
): TCPSocketListener<Slot<T>> {
  return Bun.listen<Slot<T>>({
    hostname,
    port,
    ...(tls ? { tls } : {}),
    socket: {
      open: (s) => {
        s.data = { state: null };
        const st = hooks.open(s, ipOf(s));
        if (st === null) s.end();
        else s.data.state = st;
      },
      data: (s, chunk) => {
        if (s.data.state !== null) hooks.data(s.data.state, chunk);
      },
      drain: (s) => {
        if (s.data.state !== null) hooks.drain(s.data.state);
      },
      close: (s) => {
        const st = s.data.state;
        s.data.state = null;
        if (st !== null) hooks.close(st);
      },
      error: (s) => {
        const st = s.data.state;
        s.data.state = null;
        if (st !== null) hooks.close(st);
      },
    },
  });
}

const plainIp = <T>(s: Socket<Slot<T>>): string => s.remoteAddress.replace(/^::ffff:/, "");

export function startListener<T>(
  hostname: string,
  port: number,
  protocol: number,
  tls: () => { cert: string; key: string },
  hooks: ConnectionHooks<T>,
): RunningListener {
  if (protocol === ListenProtocol.SSL) {
    const l = listen(hostname, port, tls(), hooks, plainIp);
    return { port: l.port, stop: () => l.stop(true) };
  }
  if (protocol !== ListenProtocol.TTS) {
    const l = listen(hostname, port, null, hooks, plainIp);
    return { port: l.port, stop: () => l.stop(true) };
  }
  return startTts(hostname, port, tls(), hooks);
}

interface Sniff {
  decided: boolean;
  relay: Socket<undefined> | null;
  buffered: Uint8Array[];
  inner: ConnectionHooks<unknown> | null;
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
  const relays = new Set<Socket<Sniff>>();
  const outer = Bun.listen<Sniff>({
    hostname,
    port,
    socket: {
      open: (s) => {
        s.data = { decided: false, relay: null, buffered: [], inner: null };
      },
      data: (s, chunk) => {
        const d = s.data;
        if (d.relay !== null) {
          d.relay.write(chunk);
          return;
        }
        if (d.decided) {
          d.buffered.push(new Uint8Array(chunk));
          return;
        }
        d.decided = true;
        if (chunk[0] !== TLS_HANDSHAKE) {
          // Plain stratum: hand the socket to the port as if it came from a plain listener.
          const plain = s as unknown as Socket<Slot<T>>;
          plain.data = { state: null };
          const st = hooks.open(plain, plainIp(plain));
          if (st === null) {
            s.end();
            return;
          }
          plain.data.state = st;
          hooks.data(st, chunk);
          return;
        }
        d.buffered.push(new Uint8Array(chunk));
        const ip = plainIp(s as unknown as Socket<Slot<T>>);
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
            relayIps.set(relay.localPort, ip);
            d.relay = relay;
            relays.add(s);
            for (const b of d.buffered) relay.write(b);
            d.buffered = [];
          },
          () => s.end(),
        );
      },
      drain: (s) => {
        const st = (s as unknown as Socket<Slot<T>>).data;
        if (!s.data.decided || s.data.relay !== null) return;
        if (st.state) hooks.drain(st.state);
      },
      close: (s) => {
        if (s.data.relay !== null) {
          relayIps.delete(s.data.relay.localPort);
          s.data.relay.end();
          relays.delete(s);
          return;
        }
        const st = (s as unknown as Socket<Slot<T>>).data;
        if (st && "state" in st && st.state !== null) {
          const v = st.state;
          st.state = null;
          hooks.close(v);
        }
      },
    },
  });
  return {
    port: outer.port,
    stop: () => {
      outer.stop(true);
      inner.stop(true);
      for (const r of relays) r.end();
    },
  };
}
