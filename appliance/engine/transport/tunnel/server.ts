/**
 * The server side of the RMS tunnel (spec §4: a port with protocol RMS 2, RMS2 5 or RMS3 6;
 * docs/rms-tunnel.md). A farm client's connection is a KENC link with the tunnel's own salt; inside
 * it, each miner stream is served as this port's stratum, as if the miner had connected directly.
 * A tunnel whose link drops keeps its streams for `resumeMs`, so a client that reconnects in time
 * resumes them and no miner behind it reconnects. Each handshake checks the RMS password and hands
 * the client what the RMS settings say now (handout.ts), so a changed setting needs no port restart.
 */
import { randomBytes } from "node:crypto";
import type { TunnelView } from "../../../domain/rms.ts";
import { type KencGate, kencFront } from "../kenc.ts";
import type { ByteSocket } from "../line-writer.ts";
import type { ConnectionHooks } from "../listener.ts";
import { RefusalLog } from "../refusal-log.ts";
import {
  BATCH_VERSION,
  decodeFrames,
  encodeFrame,
  type Frame,
  FrameType,
  TUNNEL_ID_BYTES,
  TunnelError,
} from "./frames.ts";
import type { TunnelHandout } from "./handout.ts";
import { checkWindow, RMS_SALT, TUNNEL_MAX_PENDING } from "./handshake.ts";
import { proofMatches } from "./password.ts";
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

export interface TunnelFrontDeps {
  log: (message: string) => void;
  /** the operator's KENC key now */
  kencKey: () => string;
  /** what the RMS settings hand a client now, read at each handshake */
  handout: () => TunnelHandout;
}

/** A tunnel as the port's tunnel list shows it (the port adds which port it is). */
export type TunnelInfo = Omit<TunnelView, "portId" | "port">;

export interface Link {
  socket: ByteSocket;
  ip: string;
  reader: RecordReader;
  tunnel: Tunnel | null;
  failed: boolean;
}

/** What a tunnel carried: its link's records and its streams' bytes, each way. */
interface TunnelBytes {
  linkIn: number;
  linkOut: number;
  streamIn: number;
  streamOut: number;
}

interface Tunnel {
  key: string;
  /** its client's tunnel version: a resume must speak the same (the frames kept for it were made for it) */
  version: number;
  session: TunnelSession;
  link: Link | null;
  expiry: ReturnType<typeof setTimeout> | null;
  name: string;
  /** the address of its last link */
  ip: string;
  bytes: TunnelBytes;
  since: number;
  lastResume: number | null;
}

export interface TunnelFront {
  hooks: ConnectionHooks<KencGate<Link>>;
  /** The tunnels the port keeps, connected or waiting for a resume. */
  tunnels(): TunnelInfo[];
  /** Ends every tunnel and its streams (the port stops). */
  stop(): void;
}

type ClientFrame = Extract<Frame, { type: typeof FrameType.client }>;

/**
 * Why a client may not open a tunnel, or null. A client of an earlier version sends no `client`
 * frame: it can only be let in while no password is set.
 */
function passwordRefusal(password: string, client: ClientFrame | undefined): string | null {
  if (password === "") return null;
  const proof = client?.proof ?? null;
  if (proof === null) return "no RMS password given: this server asks for one";
  return proofMatches(password, proof) ? null : "the RMS password is wrong";
}

/** Wraps a port's connection hooks: each stream of each tunnel is one connection to them. */
export function tunnelFront<T>(
  hooks: ConnectionHooks<T>,
  variant: Variant,
  deps: TunnelFrontDeps,
  o: TunnelServerOptions = DEFAULT_TUNNEL_SERVER,
): TunnelFront {
  const { log } = deps;
  const refusals = new RefusalLog(variant.name, log);
  const tunnels = new Map<string, Tunnel>();

  const endTunnel = (t: Tunnel) => {
    if (t.expiry) clearTimeout(t.expiry);
    tunnels.delete(t.key);
    t.session.end();
  };

  const streamSink = (
    session: TunnelSession,
    bytes: TunnelBytes,
    id: number,
    ip: string,
  ): StreamSink | null => {
    let state: T | null = null;
    let done = false;
    const finish = () => {
      if (done || state === null) return;
      done = true;
      hooks.close(state);
    };
    const socket: ByteSocket = {
      write: (data) => {
        const n = session.write(id, typeof data === "string" ? Buffer.from(data) : data);
        bytes.streamOut += n;
        return n;
      },
      end: () => {
        session.close(id);
        // a socket's close event comes after end(): the port expects the same order
        queueMicrotask(finish);
      },
    };
    state = hooks.open(socket, ip, true);
    if (state === null) return null;
    const s = state;
    return {
      deliver: (chunk) => {
        bytes.streamIn += chunk.length;
        hooks.data(s, chunk);
        return chunk.length;
      },
      writable: () => hooks.drain(s),
      closed: finish,
    };
  };

  const newTunnel = (ip: string, peerWindow: number, version: number): Tunnel => {
    const key = randomBytes(TUNNEL_ID_BYTES).toString("hex");
    const bytes: TunnelBytes = { linkIn: 0, linkOut: 0, streamIn: 0, streamOut: 0 };
    const session: TunnelSession = new TunnelSession(
      variant,
      "server",
      {
        opened: (id, address) =>
          streamSink(session, bytes, id, address || (tunnels.get(key)?.link?.ip ?? "")),
        dead: () => tunnels.get(key)?.link?.socket.end(),
      },
      o.window,
      peerWindow,
      o.timing,
      version,
    );
    const t: Tunnel = {
      key,
      version,
      session,
      link: null,
      expiry: null,
      name: "",
      ip,
      bytes,
      since: Date.now(),
      lastResume: null,
    };
    tunnels.set(key, t);
    return t;
  };

  /** The first record's frames: the hello, and from a client of this version its `client` frame. */
  const hello = (l: Link, frames: Frame[]) => {
    const f = frames.shift();
    if (f?.type !== FrameType.hello) throw new TunnelError("the first frame is not a hello");
    if (f.variant !== variant.code) throw new TunnelError(`the client asks for tunnel variant ${f.variant}`);
    const peerWindow = checkWindow(f.window);
    const next = frames[0];
    const client = next?.type === FrameType.client ? next : undefined;
    if (client !== undefined) frames.shift();
    const writer = new RecordWriter(variant, f.version);
    const handout = deps.handout();
    const refusal = passwordRefusal(handout.password, client);
    if (refusal !== null) {
      // only a client that sent `client` knows the `refused` frame; an earlier one is just closed
      if (client !== undefined)
        l.socket.write(writer.record(encodeFrame({ type: FrameType.refused, reason: refusal }), false));
      throw new TunnelError(refusal);
    }
    let t = tunnels.get(Buffer.from(f.tunnel).toString("hex"));
    const resumed = t !== undefined;
    if (t !== undefined && t.version !== f.version)
      throw new TunnelError(`a tunnel begun at version ${t.version} resumed at version ${f.version}`);
    if (t === undefined) t = newTunnel(l.ip, peerWindow, f.version);
    else t.lastResume = Date.now();
    if (t.expiry) clearTimeout(t.expiry);
    t.expiry = null;
    // a client that resumes on a new link while the old one lingers: the new one wins
    if (t.link !== null) t.link.socket.end();
    t.link = l;
    t.ip = l.ip;
    t.name = client?.name || handout.settings.name;
    l.tunnel = t;
    const tunnel = t;
    const counted: ByteSocket = {
      write: (data) => {
        tunnel.bytes.linkOut += typeof data === "string" ? Buffer.byteLength(data) : data.length;
        return l.socket.write(data);
      },
      end: () => l.socket.end(),
    };
    const welcome: Uint8Array[] = [
      encodeFrame({
        type: FrameType.welcome,
        tunnel: Buffer.from(t.key, "hex"),
        resumed,
        received: t.session.receivedCount,
        window: o.window,
      }),
    ];
    // the settings as they are now: a changed window, mapping or text reaches the client at its next resume
    if (f.version >= BATCH_VERSION) welcome.push(encodeFrame({ type: FrameType.batch, ms: handout.batchMs }));
    if (client !== undefined) welcome.push(encodeFrame({ type: FrameType.settings, ...handout.settings }));
    counted.write(writer.record(Buffer.concat(welcome), false));
    // an earlier client sends its records at once, but this end's still wait: the setting is the server's
    t.session.attach(counted, writer, resumed ? f.received : 0, handout.batchMs);
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
          if (l.tunnel === null) hello(l, frames);
          (l.tunnel as Tunnel | null)?.session.receive(frames);
        }
        if (l.tunnel !== null) l.tunnel.bytes.linkIn += chunk.length;
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
    hooks: kencFront(plain, log, deps.kencKey, {
      salt: RMS_SALT,
      maxPending: TUNNEL_MAX_PENDING,
      name: variant.name,
    }),
    tunnels: () =>
      [...tunnels.values()].map((t) => ({
        variant: variant.name,
        name: t.name,
        address: t.ip,
        connected: t.link !== null,
        streams: t.session.streamCount,
        ...t.bytes,
        since: t.since,
        lastResume: t.lastResume,
      })),
    stop: () => {
      for (const t of [...tunnels.values()]) endTunnel(t);
    },
  };
}
