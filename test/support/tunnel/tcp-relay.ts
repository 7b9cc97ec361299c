/**
 * A TCP relay between a farm client and a port, for tunnel tests: it counts and keeps the bytes of
 * each connection both ways (so a test can decode what crossed the wire), and can cut every
 * connection at once, as a dropped uplink does, or swallow their bytes without closing them, as a
 * black-holed one (a 4G link that stalls) does.
 */
import type { Socket } from "bun";

export interface RelayedConnection {
  /** client → server bytes, in order */
  up: Uint8Array[];
  /** server → client bytes, in order */
  down: Uint8Array[];
  client: Socket<RelayedConnection>;
  server: Socket<undefined> | null;
  /** bytes are swallowed both ways; the sockets stay open */
  blackholed: boolean;
}

const total = (parts: Uint8Array[]): number => parts.reduce((n, p) => n + p.length, 0);

export class TcpRelay {
  readonly connections: RelayedConnection[] = [];
  private readonly listener;

  constructor(target: number) {
    this.listener = Bun.listen<RelayedConnection>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open: (client) => {
          const c: RelayedConnection = { up: [], down: [], client, server: null, blackholed: false };
          client.data = c;
          this.connections.push(c);
          Bun.connect({
            hostname: "127.0.0.1",
            port: target,
            socket: {
              data: (_s, d) => {
                if (c.blackholed) return;
                c.down.push(new Uint8Array(d));
                client.write(d);
              },
              close: () => {
                if (!c.blackholed) client.end();
              },
              error: () => {
                client.end();
              },
            },
          }).then(
            (server) => {
              c.server = server;
              // what the client sent before the server was reached
              for (const b of c.up) server.write(b);
            },
            () => client.end(),
          );
        },
        data: (client, d) => {
          const c = client.data;
          if (c.blackholed) return;
          c.up.push(new Uint8Array(d));
          c.server?.write(d);
        },
        close: (client) => {
          // a black hole passes nothing on, not even the end of a connection
          if (!client.data.blackholed) client.data.server?.end();
        },
        error: (client) => {
          client.data.server?.end();
        },
      },
    });
  }

  get port(): number {
    return this.listener.port;
  }

  /** server → client bytes of every connection so far */
  get bytesDown(): number {
    return this.connections.reduce((n, c) => n + total(c.down), 0);
  }

  /** Drops every open connection at both ends, as a dead uplink would. */
  cut(): void {
    for (const c of this.connections) {
      c.client.end();
      c.server?.end();
    }
  }

  /** From now on every open connection swallows its bytes both ways and stays open. */
  blackhole(): void {
    for (const c of this.connections) c.blackholed = true;
  }

  stop(): void {
    this.cut();
    this.listener.stop(true);
  }
}
