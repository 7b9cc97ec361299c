/**
 * The farm side of the RMS tunnel (`pithead client --tunnel rms|rms2|rms3`, docs/rms-tunnel.md):
 * every miner that connects to the local port becomes a stream of one tunnel to a Pithead RMS port.
 * When the tunnel's link drops the miners stay connected: the client dials again and resumes the
 * tunnel, and what either side sent meanwhile is delivered. Only a tunnel the server no longer
 * knows (or one not resumed within `resumeMs`) closes its miners, which then reconnect.
 * Each connect presents the RMS password and the client's name, and hands what the server's RMS
 * settings say (name, texts, port mapping) to `settings`.
 */
import type { Socket, TCPSocketListener } from "bun";
import type { Endpoint } from "../engine/transport/endpoint.ts";
import { MAX_PENDING_BYTES } from "../engine/transport/line-writer.ts";
import { RefusalLog } from "../engine/transport/refusal-log.ts";
import {
  type ClientSettings,
  decodeFrames,
  encodeFrame,
  type Frame,
  FrameType,
  TUNNEL_ID_BYTES,
  TUNNEL_VERSION,
  TunnelError,
} from "../engine/transport/tunnel/frames.ts";
import { checkWindow, RMS_SALT, TUNNEL_MAX_PENDING } from "../engine/transport/tunnel/handshake.ts";
import { passwordProof } from "../engine/transport/tunnel/password.ts";
import { RecordReader, RecordWriter, type Variant } from "../engine/transport/tunnel/records.ts";
import {
  DEFAULT_TUNNEL_TIMING,
  DEFAULT_WINDOW,
  TunnelSession,
  type TunnelTiming,
} from "../engine/transport/tunnel/session.ts";
import { dialKenc, type KencLink } from "./kenc-link.ts";

export interface TunnelClientOptions {
  listenHost: string;
  /** null: no local port until `serve` opens one (the server's port mapping names it) */
  listenPort: number | null;
  /** the Pithead RMS / RMS2 / RMS3 port */
  server: Pick<Endpoint, "host" | "port">;
  kencKey: string;
  variant: Variant;
  log: (message: string) => void;
  /**
   * the server's RMS password, "" or absent for none; a function is read as each link is dialled, so
   * a changed password reaches the server at the next connect or resume (the engine's pool tunnels)
   */
  password?: string | (() => string);
  /** the name the client reports; absent: the one the server's settings hand it */
  name?: string;
  /** what the server's RMS settings hand the client, at each connect and resume */
  settings?: (s: ClientSettings) => void;
  window?: number;
  timing?: TunnelTiming;
  /** wait before dialling again after the link dropped */
  retryMs?: number;
  /** a tunnel not resumed within this long is given up: its miners are closed */
  resumeMs?: number;
}

export interface RunningTunnelClient {
  /** the local port miners connect to (0 while there is none) */
  readonly port: number;
  /** Opens the local port (moving it if one is open: its miners are closed), null closes it; returns the bound port. */
  serve(port: number | null): number;
  /** links that reached the tunnel (the first, then each resume) */
  readonly links: number;
  readonly connected: boolean;
  readonly streams: number;
  stop(): void;
}

/** The server refused the tunnel and said why (the RMS password). */
class ServerRefusal extends TunnelError {}

interface Miner {
  socket: Socket<Miner>;
  stream: number | null;
  /** what the miner sent before its stream opened */
  early: Uint8Array[];
  earlyBytes: number;
  /** bytes for the tunnel that its credit did not allow yet */
  out: Uint8Array[];
  outBytes: number;
  /** bytes for the miner that its socket did not take yet (bounded by the stream's window) */
  backlog: Uint8Array | null;
  closed: boolean;
}

export function startTunnelClient(o: TunnelClientOptions): RunningTunnelClient {
  const window = o.window ?? DEFAULT_WINDOW;
  const timing = o.timing ?? DEFAULT_TUNNEL_TIMING;
  const refusals = new RefusalLog(o.variant.name, o.log);
  const server = `${o.server.host}:${o.server.port}`;
  const miners = new Set<Miner>();
  let session: TunnelSession | null = null;
  let tunnelId: Uint8Array = new Uint8Array(TUNNEL_ID_BYTES);
  let link: KencLink | null = null;
  let welcomed = false;
  let links = 0;
  let stopped = false;
  let giveUp: ReturnType<typeof setTimeout> | null = null;
  let listener: TCPSocketListener<Miner> | null = null;
  const password = o.password ?? "";
  /** the proof of the password last read: scrypt costs tens of ms, not to be paid at each dial */
  let proven: { password: string; proof: Uint8Array | null } = { password: "", proof: null };
  const proof = (): Uint8Array | null => {
    const p = typeof password === "function" ? password() : password;
    if (p !== proven.password) proven = { password: p, proof: p ? passwordProof(p) : null };
    return proven.proof;
  };
  /** the name the server's settings handed, reported on the next connect */
  let handedName = "";
  /** the batch window this client keeps to, told in the log when the server changes it */
  let batchMs = 0;

  const closeMiner = (m: Miner) => {
    if (m.closed) return;
    m.closed = true;
    miners.delete(m);
    if (m.stream !== null) session?.close(m.stream);
    m.socket.end();
  };

  const toTunnel = (m: Miner, bytes: Uint8Array) => {
    const s = session as TunnelSession;
    if (m.out.length === 0) {
      const n = s.write(m.stream as number, bytes);
      if (n === bytes.length) return;
      bytes = bytes.subarray(n);
    }
    m.out.push(new Uint8Array(bytes));
    m.outBytes += bytes.length;
    if (m.outBytes > MAX_PENDING_BYTES) closeMiner(m);
  };

  const flushOut = (m: Miner) => {
    const pending = m.out;
    m.out = [];
    m.outBytes = 0;
    for (const b of pending) toTunnel(m, b);
  };

  const openStream = (s: TunnelSession, m: Miner) => {
    m.stream = s.open(
      {
        deliver: (bytes) => {
          if (m.backlog !== null) {
            m.backlog = Buffer.concat([m.backlog, bytes]);
            return 0;
          }
          const n = Math.max(0, m.socket.write(bytes));
          if (n < bytes.length) m.backlog = new Uint8Array(bytes.subarray(n));
          return n;
        },
        writable: () => flushOut(m),
        closed: () => {
          m.stream = null;
          closeMiner(m);
        },
      },
      // the port sees the miner's address as a direct connection would show it
      m.socket.remoteAddress.replace(/^::ffff:/, ""),
    );
    const early = m.early;
    m.early = [];
    for (const b of early) toTunnel(m, b);
  };

  const endSession = () => {
    if (giveUp) clearTimeout(giveUp);
    giveUp = null;
    const s = session;
    session = null;
    tunnelId = new Uint8Array(TUNNEL_ID_BYTES);
    s?.end();
  };

  /** The first record's frames: the welcome, batch window and settings, or why the server refuses the tunnel. */
  const welcome = (frames: Frame[], l: KencLink, writer: RecordWriter) => {
    const f = frames.shift();
    if (f?.type === FrameType.refused) {
      // with no tunnel to resume, the miners waiting for one go back to their own failover
      if (session === null) for (const m of [...miners]) closeMiner(m);
      throw new ServerRefusal(`the server refuses the tunnel: ${f.reason}`);
    }
    if (f?.type !== FrameType.welcome) throw new TunnelError("the first frame is not a welcome");
    const batch = frames[0]?.type === FrameType.batch ? frames.shift() : undefined;
    const handedBatch = batch?.type === FrameType.batch ? batch.ms : 0;
    if (handedBatch !== batchMs)
      o.log(
        handedBatch === 0
          ? `${o.variant.name} ${server}: no batch window: each share crosses the tunnel at once`
          : `${o.variant.name} ${server}: the server's batch window is ${handedBatch} ms: shares and their answers wait up to that long each way, to cross the tunnel together`,
      );
    batchMs = handedBatch;
    const next = frames[0];
    const handed = next?.type === FrameType.settings ? next : undefined;
    if (handed !== undefined) frames.shift();
    const peerWindow = checkWindow(f.window);
    if (!f.resumed && session !== null) {
      o.log(`${o.variant.name} ${server}: the server did not know the tunnel any more; its miners reconnect`);
      endSession();
    }
    if (giveUp) clearTimeout(giveUp);
    giveUp = null;
    tunnelId = f.tunnel;
    let s = session;
    if (s === null) {
      s = new TunnelSession(
        o.variant,
        "client",
        { opened: () => null, dead: () => link?.end() },
        window,
        peerWindow,
        timing,
        TUNNEL_VERSION,
      );
      session = s;
      for (const m of miners) if (m.stream === null) openStream(s, m);
    }
    s.attach(
      {
        write: (d) => {
          const b = typeof d === "string" ? Buffer.from(d) : d;
          l.write(b);
          return b.length;
        },
        end: () => l.end(),
      },
      writer,
      f.resumed ? f.received : 0,
      handedBatch,
    );
    welcomed = true;
    links++;
    if (f.resumed) o.log(`${o.variant.name} ${server}: tunnel resumed with its ${s.streamCount} miners`);
    if (handed !== undefined) {
      handedName = handed.name;
      o.settings?.(handed);
    }
  };

  const dial = () => {
    if (stopped) return;
    const reader = new RecordReader(o.variant);
    const writer = new RecordWriter(o.variant, TUNNEL_VERSION);
    welcomed = false;
    const l: KencLink = dialKenc(
      { server: o.server, kencKey: o.kencKey, salt: RMS_SALT, maxPending: TUNNEL_MAX_PENDING },
      {
        data: (plain) => {
          try {
            for (const body of reader.push(plain)) {
              const frames = decodeFrames(body);
              if (!welcomed) welcome(frames, l, writer);
              session?.receive(frames);
            }
          } catch (e) {
            if (!(e instanceof TunnelError)) throw e;
            refusals.refused(
              server,
              e instanceof ServerRefusal ? e.message : `the server's tunnel: ${e.message}`,
            );
            l.end();
          }
        },
        closed: (answered) => {
          if (link !== l) return;
          link = null;
          if (!answered) {
            refusals.refused(
              server,
              "the server closed the tunnel before answering: is this its KENC key and tunnel variant, and is the server appliance at least as new as this client?",
            );
            // with no tunnel to resume, the miners waiting for one go back to their own failover
            if (session === null) for (const m of [...miners]) closeMiner(m);
          }
          if (session !== null && welcomed && !stopped) {
            session.detach();
            o.log(
              `${o.variant.name} ${server}: the tunnel's link dropped; its ${session.streamCount} miners stay connected while it is resumed`,
            );
            giveUp = setTimeout(endSession, o.resumeMs ?? 60_000);
          }
          welcomed = false;
          if (!stopped) setTimeout(dial, o.retryMs ?? 1000);
        },
        failed: (reason) => refusals.refused(server, reason),
      },
    );
    link = l;
    const hello = encodeFrame({
      type: FrameType.hello,
      version: TUNNEL_VERSION,
      variant: o.variant.code,
      tunnel: tunnelId,
      received: session?.receivedCount ?? 0,
      window,
    });
    const client = encodeFrame({ type: FrameType.client, proof: proof(), name: o.name ?? handedName });
    l.write(writer.record(Buffer.concat([hello, client]), false));
  };

  const listen = (port: number): TCPSocketListener<Miner> =>
    Bun.listen<Miner>({
      hostname: o.listenHost,
      port,
      socket: {
        open: (socket) => {
          const m: Miner = {
            socket,
            stream: null,
            early: [],
            earlyBytes: 0,
            out: [],
            outBytes: 0,
            backlog: null,
            closed: false,
          };
          socket.data = m;
          miners.add(m);
          if (session !== null) openStream(session, m);
        },
        data: (socket, chunk) => {
          const m = socket.data;
          if (m.closed) return;
          if (m.stream !== null) {
            toTunnel(m, chunk);
            return;
          }
          m.earlyBytes += chunk.length;
          if (m.earlyBytes > MAX_PENDING_BYTES) closeMiner(m);
          else m.early.push(new Uint8Array(chunk));
        },
        drain: (socket) => {
          const m = socket.data;
          const b = m.backlog;
          if (b === null || m.stream === null) return;
          const n = Math.max(0, socket.write(b));
          m.backlog = n < b.length ? b.subarray(n) : null;
          if (n > 0) session?.taken(m.stream, n);
        },
        close: (socket) => closeMiner(socket.data),
        error: (socket) => closeMiner(socket.data),
      },
    });
  const serve = (port: number | null): number => {
    listener?.stop(true);
    listener = port === null ? null : listen(port);
    return listener?.port ?? 0;
  };
  if (o.listenPort !== null) serve(o.listenPort);
  dial();
  return {
    get port() {
      return listener?.port ?? 0;
    },
    serve,
    get links() {
      return links;
    },
    get connected() {
      return session?.connected ?? false;
    },
    get streams() {
      return session?.streamCount ?? 0;
    },
    stop: () => {
      stopped = true;
      serve(null);
      for (const m of [...miners]) closeMiner(m);
      endSession();
      link?.end();
    },
  };
}
