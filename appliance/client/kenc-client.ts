/**
 * The farm side of KENC (`pithead client`, docs/kenc.md): a local port for plain stratum miners,
 * each of whose connections is carried to a remote Pithead KENC port over a KENC connection of its
 * own. Whatever ends one side ends the other, so a miner sees its pool connection drop exactly
 * when the link does, and reconnects as it would to a pool.
 */
import { randomBytes } from "node:crypto";
import type { Socket, TCPSocketListener } from "bun";
import type { Endpoint } from "../engine/transport/endpoint.ts";
import {
  type FrameOpener,
  HelloReader,
  KencError,
  makeHello,
  RANDOM_BYTES,
  sessionCodecs,
} from "../engine/transport/kenc-codec.ts";
import { MAX_PENDING_BYTES } from "../engine/transport/line-writer.ts";
import { QueuedWriter } from "../engine/transport/queued-writer.ts";
import { RefusalLog } from "../engine/transport/refusal-log.ts";

export interface KencClientOptions {
  /** where local miners connect */
  listenHost: string;
  listenPort: number;
  /** the Pithead KENC port */
  server: Pick<Endpoint, "host" | "port">;
  kencKey: string;
  log: (message: string) => void;
}

export interface RunningClient {
  readonly port: number;
  stop(): void;
}

/** One miner and its KENC connection. */
interface Link {
  ip: string;
  miner: Socket<Link>;
  /** what the server sends, opened; null until its hello */
  opener: FrameOpener | null;
  /** the miner's bytes, sealed to the server; null until the server's hello */
  toServer: QueuedWriter | null;
  /** plaintext back to the miner */
  toMiner: QueuedWriter;
  up: Socket<undefined> | null;
  clientRandom: Uint8Array;
  hello: HelloReader;
  /** what the miner sent before the link was keyed */
  early: Uint8Array[];
  /** bytes the miner has sent */
  minerBytes: number;
  /** a frame from the server opened: the key is right */
  answered: boolean;
  closed: boolean;
}

export function startKencClient(o: KencClientOptions): RunningClient {
  const refusals = new RefusalLog("KENC", o.log);
  const server = `${o.server.host}:${o.server.port}`;
  const links = new Set<Link>();
  const close = (l: Link) => {
    if (l.closed) return;
    l.closed = true;
    links.delete(l);
    l.up?.end();
    l.miner.end();
  };
  const fromServer = (l: Link, chunk: Uint8Array) => {
    try {
      let bytes = chunk;
      if (l.opener === null) {
        const hello = l.hello.push(chunk);
        if (hello === null) return;
        const { opener, sealer } = sessionCodecs(o.kencKey, "client", l.clientRandom, hello.random);
        l.opener = opener;
        l.toServer = new QueuedWriter(l.up as Socket<undefined>, (plain) => sealer.seal(plain));
        for (const b of l.early) l.toServer.write(b);
        l.early = [];
        bytes = hello.rest;
      }
      for (const plain of l.opener.push(bytes)) {
        l.answered = true;
        l.toMiner.write(plain);
      }
    } catch (e) {
      if (!(e instanceof KencError)) throw e;
      refusals.refused(server, `the port's frames: ${e.message}`);
      close(l);
    }
  };
  const dial = (l: Link) => {
    Bun.connect({
      hostname: o.server.host,
      port: o.server.port,
      socket: {
        data: (_s, chunk) => fromServer(l, chunk),
        drain: () => {
          l.toServer?.flush();
        },
        close: () => {
          // the port closes a link whose first frame does not authenticate, and says nothing
          if (!l.closed && !l.answered && l.toServer !== null && l.minerBytes > 0)
            refusals.refused(server, "the port closed the link before answering: is this its KENC key?");
          close(l);
        },
        error: () => close(l),
      },
    }).then(
      (up) => {
        if (l.closed) {
          up.end();
          return;
        }
        l.up = up;
        up.write(makeHello(l.clientRandom));
      },
      (err: unknown) => {
        refusals.refused(server, `cannot reach the port: ${String(err)}`);
        close(l);
      },
    );
  };
  const listener: TCPSocketListener<Link> = Bun.listen<Link>({
    hostname: o.listenHost,
    port: o.listenPort,
    socket: {
      open: (miner) => {
        const l: Link = {
          ip: miner.remoteAddress,
          miner,
          opener: null,
          toServer: null,
          toMiner: new QueuedWriter(miner, (plain) => plain),
          up: null,
          clientRandom: randomBytes(RANDOM_BYTES),
          hello: new HelloReader(),
          early: [],
          minerBytes: 0,
          answered: false,
          closed: false,
        };
        miner.data = l;
        links.add(l);
        dial(l);
      },
      data: (miner, chunk) => {
        const l = miner.data;
        l.minerBytes += chunk.length;
        if (l.toServer !== null) l.toServer.write(chunk);
        else if (l.minerBytes > MAX_PENDING_BYTES) close(l);
        else l.early.push(new Uint8Array(chunk));
      },
      drain: (miner) => {
        miner.data.toMiner.flush();
      },
      close: (miner) => close(miner.data),
      error: (miner) => close(miner.data),
    },
  });
  return {
    port: listener.port,
    stop: () => {
      listener.stop(true);
      for (const l of [...links]) close(l);
    },
  };
}
