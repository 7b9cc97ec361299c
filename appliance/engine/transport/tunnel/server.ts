/**
 * The server side of the RMS tunnel (spec §4: a port with protocol RMS 2, RMS2 5 or RMS3 6;
 * docs/rms-tunnel.md). A farm client's connection is a KENC link with the tunnel's own salt; inside
 * it, each miner stream is served as this port's stratum, as if the miner had connected directly.
 * A tunnel whose link drops keeps its streams for `resumeMs`, so a client that reconnects in time
 * resumes them and no miner behind it reconnects.
 */
import { randomBytes } from "node:crypto";
import { type KencGate, kencFront } from "../kenc.ts";
import type { ByteSocket } from "../line-writer.ts";
import type { ConnectionHooks } from "../listener.ts";
import { RefusalLog } from "../refusal-log.ts";
import { decodeFrames, encodeFrame, type Frame, FrameType, TUNNEL_ID_BYTES, TunnelError } from "./frames.ts";
import { checkWindow, RMS_SALT, TUNNEL_MAX_PENDING } from "./handshake.ts";
import { RecordReader, RecordWriter, type Variant } from "./records.ts";
import { DEFAULT_TUNNEL_TIMING, DEFAULT_WINDOW, TunnelSession, type TunnelTiming } from "./session.ts";
import type { StreamSink } from "./stream.ts";

export interface TunnelServerOptions {
  timing: TunnelTiming;
  /** how long a tunnel whose link dropped waits for its client to resume it */
  resumeMs: number;
  window: number;
}

export const DEFAULT_TUNNEL_SERVER: TunnelServerOptions = {
  timing: DEFAULT_TUNNEL_TIMING,
  resumeMs: 60_000,
  window: DEFAULT_WINDOW,
};

export interface Link {
  socket: ByteSocket;
  ip: string;
  reader: RecordReader;
  tunnel: Tunnel | null;
  failed: boolean;
}

interface Tunnel {
  key: string;
  session: TunnelSession;
  link: Link | null;
  expiry: ReturnType<typeof setTimeout> | null;
}

export interface TunnelFront {
  hooks: ConnectionHooks<KencGate<Link>>;
  /** Ends every tunnel and its streams (the port stops). */
  stop(): void;
}

/** Wraps a port's connection hooks: each stream of each tunnel is one connection to them. */
export function tunnelFront<T>(
  hooks: ConnectionHooks<T>,
  variant: Variant,
  log: (message: string) => void,
  kencKey: () => string,
  o: TunnelServerOptions = DEFAULT_TUNNEL_SERVER,
): TunnelFront {
  const refusals = new RefusalLog(variant.name, log);
  const tunnels = new Map<string, Tunnel>();

  const endTunnel = (t: Tunnel) => {
    if (t.expiry) clearTimeout(t.expiry);
    tunnels.delete(t.key);
    t.session.end();
  };

  const streamSink = (session: TunnelSession, id: number, ip: string): StreamSink | null => {
    let state: T | null = null;
    let done = false;
    const finish = () => {
      if (done || state === null) return;
      done = true;
      hooks.close(state);
    };
    const socket: ByteSocket = {
      write: (data) => session.write(id, typeof data === "string" ? Buffer.from(data) : data),
      end: () => {
        session.close(id);
        // a socket's close event comes after end(): the port expects the same order
        queueMicrotask(finish);
      },
    };
    state = hooks.open(socket, ip);
    if (state === null) return null;
    const s = state;
    return {
      deliver: (bytes) => {
        hooks.data(s, bytes);
        return bytes.length;
      },
      writable: () => hooks.drain(s),
      closed: finish,
    };
  };

  const hello = (l: Link, f: Frame) => {
    if (f.type !== FrameType.hello) throw new TunnelError("the first frame is not a hello");
    if (f.variant !== variant.code) throw new TunnelError(`the client asks for tunnel variant ${f.variant}`);
    const peerWindow = checkWindow(f.window);
    const asked = Buffer.from(f.tunnel).toString("hex");
    let t = tunnels.get(asked);
    const resumed = t !== undefined;
    if (t === undefined) {
      const key = randomBytes(TUNNEL_ID_BYTES).toString("hex");
      const session: TunnelSession = new TunnelSession(
        variant,
        "server",
        {
          opened: (id, address) => streamSink(session, id, address || (tunnels.get(key)?.link?.ip ?? "")),
          dead: () => tunnels.get(key)?.link?.socket.end(),
        },
        o.window,
        peerWindow,
        o.timing,
      );
      t = { key, session, link: null, expiry: null };
      tunnels.set(key, t);
    }
    if (t.expiry) clearTimeout(t.expiry);
    t.expiry = null;
    // a client that resumes on a new link while the old one lingers: the new one wins
    if (t.link !== null) t.link.socket.end();
    t.link = l;
    l.tunnel = t;
    const writer = new RecordWriter(variant);
    const welcome = encodeFrame({
      type: FrameType.welcome,
      tunnel: Buffer.from(t.key, "hex"),
      resumed,
      received: t.session.receivedCount,
      window: o.window,
    });
    l.socket.write(writer.record(welcome, false));
    t.session.attach(l.socket, writer, resumed ? f.received : 0);
    if (resumed)
      log(`${variant.name} tunnel from ${l.ip}: resumed with its ${t.session.streamCount} streams`);
  };

  const plain: ConnectionHooks<Link> = {
    open: (socket, ip) => ({ socket, ip, reader: new RecordReader(variant), tunnel: null, failed: false }),
    data: (l, chunk) => {
      // a link replaced by a resume may still bring data the kernel held: the new link's welcome
      // already told the client what arrived, so the rest comes again on it
      if (l.failed || (l.tunnel !== null && l.tunnel.link !== l)) return;
      try {
        for (const body of l.reader.push(chunk)) {
          const frames = decodeFrames(body);
          if (l.tunnel === null) {
            const first = frames.shift();
            if (first === undefined) throw new TunnelError("an empty first record");
            hello(l, first);
          }
          (l.tunnel as Tunnel | null)?.session.receive(frames);
        }
      } catch (e) {
        if (!(e instanceof TunnelError)) throw e;
        l.failed = true;
        refusals.refused(l.ip, e.message);
        l.socket.end();
        // a peer that breaks the protocol loses its tunnel, and nothing else does
        if (l.tunnel !== null) endTunnel(l.tunnel);
      }
    },
    drain: () => {},
    close: (l) => {
      const t = l.tunnel;
      if (t === null || t.link !== l || !tunnels.has(t.key)) return;
      t.link = null;
      t.session.detach();
      const wait = `${o.resumeMs / 1000} s`;
      log(
        `${variant.name} tunnel from ${l.ip}: link dropped; its ${t.session.streamCount} streams wait ${wait} for a resume`,
      );
      t.expiry = setTimeout(() => {
        log(
          `${variant.name} tunnel from ${l.ip}: not resumed in ${wait}; its ${t.session.streamCount} streams are closed`,
        );
        endTunnel(t);
      }, o.resumeMs);
    },
  };
  return {
    hooks: kencFront(plain, log, kencKey, {
      salt: RMS_SALT,
      maxPending: TUNNEL_MAX_PENDING,
      name: variant.name,
    }),
    stop: () => {
      for (const t of [...tunnels.values()]) endTunnel(t);
    },
  };
}
