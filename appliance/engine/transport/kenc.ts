/**
 * KENC front-end (spec §4: protocol SSL with et_mode 1; docs/kenc.md): a farm-side client and this
 * port exchange hellos, derive per-connection keys from the operator's KENC key, and carry the
 * miner's stratum in AES-256-GCM frames. The decrypted stream is served as this port's stratum and
 * what the port answers goes back sealed. The port's `open` runs at the first frame that
 * authenticates, so a wrong key never reaches the connection limit or the miner list.
 */
import { randomBytes } from "node:crypto";
import {
  type FrameOpener,
  type Hello,
  HelloReader,
  HKDF_SALT,
  KencError,
  makeHello,
  RANDOM_BYTES,
  sessionCodecs,
} from "./kenc-codec.ts";
import { type ByteSocket, MAX_PENDING_BYTES } from "./line-writer.ts";
import type { ConnectionHooks } from "./listener.ts";
import { QueuedWriter } from "./queued-writer.ts";
import { RefusalLog } from "./refusal-log.ts";
import { HANDSHAKE_TIMEOUT_MS } from "./socks5.ts";

export interface KencGate<T> {
  socket: ByteSocket;
  ip: string;
  kencKey: string;
  hello: HelloReader;
  opener: FrameOpener | null;
  sealed: QueuedWriter | null;
  inner: T | null;
  failed: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

/** What the KENC link carries, when it is not one miner's stratum (the RMS tunnel: docs/rms-tunnel.md). */
export interface KencCarrier {
  /** the HKDF salt, which keeps the keys of one kind of link from opening another */
  salt: string;
  /** bytes waiting for a peer that does not read before it is cut off */
  maxPending: number;
  /** what the port log calls the transport in a refusal */
  name: string;
}

/**
 * Wraps a port's connection hooks with KENC. `kencKey` is read as each connection opens, so a key
 * changed in the console applies to the next connection; with no key set every connection is refused.
 */
export function kencFront<T>(
  hooks: ConnectionHooks<T>,
  log: (message: string) => void,
  kencKey: () => string,
  carrier: KencCarrier = { salt: HKDF_SALT, maxPending: MAX_PENDING_BYTES, name: "KENC" },
): ConnectionHooks<KencGate<T>> {
  const refusals = new RefusalLog(carrier.name, log);
  const fail = (g: KencGate<T>, why: string) => {
    g.failed = true;
    g.socket.end();
    refusals.refused(g.ip, why);
  };
  /** answers in the client's version: a client of an earlier version is served as it speaks */
  const keyed = (g: KencGate<T>, client: Hello) => {
    const serverRandom = randomBytes(RANDOM_BYTES);
    g.socket.write(makeHello(serverRandom, client.version));
    const { opener, sealer } = sessionCodecs(
      g.kencKey,
      "server",
      client.random,
      serverRandom,
      carrier.salt,
      client.version,
    );
    g.opener = opener;
    g.sealed = new QueuedWriter(g.socket, (plain) => sealer.seal(plain), carrier.maxPending);
  };
  const deliver = (g: KencGate<T>, plain: Uint8Array) => {
    if (g.inner === null) {
      if (g.timer) clearTimeout(g.timer);
      g.timer = null;
      g.inner = hooks.open(g.sealed as QueuedWriter, g.ip);
      if (g.inner === null) {
        g.failed = true;
        g.socket.end();
        return;
      }
    }
    hooks.data(g.inner, plain);
  };
  return {
    open: (socket, ip) => {
      const key = kencKey();
      if (key === "") {
        refusals.refused(ip, "no KENC key is set (Settings → KENC key); connection refused");
        return null;
      }
      const g: KencGate<T> = {
        socket,
        ip,
        kencKey: key,
        hello: new HelloReader(),
        opener: null,
        sealed: null,
        inner: null,
        failed: false,
        timer: null,
      };
      g.timer = setTimeout(() => {
        g.timer = null;
        if (g.inner === null && !g.failed) fail(g, "no authenticated frame in time");
      }, HANDSHAKE_TIMEOUT_MS);
      return g;
    },
    data: (g, chunk) => {
      if (g.failed) return;
      try {
        let bytes = chunk;
        if (g.opener === null) {
          const hello = g.hello.push(chunk);
          if (hello === null) return;
          keyed(g, hello);
          bytes = hello.rest;
        }
        for (const plain of (g.opener as FrameOpener).push(bytes)) {
          deliver(g, plain);
          if (g.failed) return;
        }
      } catch (e) {
        if (!(e instanceof KencError)) throw e;
        fail(g, e.message);
      }
    },
    drain: (g) => {
      if (g.sealed?.flush() && g.inner !== null) hooks.drain(g.inner);
    },
    close: (g) => {
      if (g.timer) clearTimeout(g.timer);
      g.timer = null;
      if (!g.failed && (g.opener?.buffered ?? 0) > 0)
        refusals.refused(g.ip, "truncated frame (the connection ended inside a frame)");
      if (g.inner !== null) hooks.close(g.inner);
      g.inner = null;
    },
  };
}
