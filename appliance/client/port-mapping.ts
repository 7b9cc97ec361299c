/**
 * The local ports of the server's port mapping (docs/rms-tunnel.md, "Handshake: the RMS settings"):
 * `pithead client --tunnel` started without `--listen` opens each port the server hands it, every
 * one carried by a tunnel of its own to its server port. The tunnel to `--server` is already up (it
 * brought the mapping) and serves its own mapped port; the others are started here. The mapping
 * comes again with every connect and resume, and only what changed is opened or closed.
 */
import type { MappedPort } from "../engine/transport/tunnel/frames.ts";
import type { RunningTunnelClient } from "./tunnel-client.ts";

export interface PortMappingOptions {
  /** the tunnel to `--server`, which brought the mapping, and which server port and variant it reaches */
  named: { client: RunningTunnelClient; server: number; variant: number };
  /** a tunnel client for another mapped port, listening on its local port (throws if it cannot) */
  start: (p: MappedPort) => RunningTunnelClient;
  /** prints a line */
  say: (line: string) => void;
  /** the start line of a mapped port that now listens on `bound` */
  started: (p: MappedPort, bound: number) => string;
}

interface Opened {
  port: MappedPort;
  client: RunningTunnelClient;
}

const keyOf = (p: MappedPort) => `${p.variant} ${p.server}`;
const same = (a: MappedPort, b: MappedPort) => a.local === b.local && a.remark === b.remark;

export class PortMapping {
  private readonly opened = new Map<string, Opened>();

  constructor(private readonly o: PortMappingOptions) {}

  /** Opens the ports the mapping adds or moves, closes those it drops. */
  apply(ports: readonly MappedPort[]): void {
    const wanted = new Map(ports.map((p) => [keyOf(p), p]));
    for (const [key, was] of this.opened) {
      const now = wanted.get(key);
      if (now !== undefined && same(now, was.port)) continue;
      this.close(key, was);
      if (now === undefined)
        this.o.say(
          `the server no longer maps its port ${was.port.server}: local port ${was.port.local} closed`,
        );
    }
    if (ports.length === 0)
      this.o.say("the server's port mapping hands no port: nothing to listen on (see --listen)");
    for (const [key, p] of wanted) if (!this.opened.has(key)) this.open(key, p);
  }

  stop(): void {
    for (const [key, was] of this.opened) this.close(key, was);
  }

  private isNamed(p: MappedPort): boolean {
    return p.server === this.o.named.server && p.variant === this.o.named.variant;
  }

  private open(key: string, p: MappedPort): void {
    try {
      const client = this.isNamed(p) ? this.o.named.client : this.o.start(p);
      if (client === this.o.named.client) client.serve(p.local);
      this.opened.set(key, { port: p, client });
      this.o.say(this.o.started(p, client.port));
    } catch (e) {
      this.o.say(
        `cannot listen on local port ${p.local} for the server's port ${p.server}: ${(e as Error).message}`,
      );
    }
  }

  private close(key: string, was: Opened): void {
    this.opened.delete(key);
    // the tunnel to --server keeps bringing the mapping: only its local port closes
    if (was.client === this.o.named.client) was.client.serve(null);
    else was.client.stop();
  }
}
