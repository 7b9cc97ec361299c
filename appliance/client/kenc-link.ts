/**
 * One KENC link from the farm side to a Pithead port (docs/kenc.md): dials, exchanges hellos,
 * derives the keys, seals what is written and opens what arrives. The one-miner client and the RMS
 * tunnel client both run over it; they differ in the salt and in what they carry.
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "bun";
import type { Endpoint } from "../engine/transport/endpoint.ts";
import {
  type FrameOpener,
  HelloReader,
  KENC_VERSION,
  KencError,
  makeHello,
  RANDOM_BYTES,
  sessionCodecs,
} from "../engine/transport/kenc-codec.ts";
import { QueuedWriter } from "../engine/transport/queued-writer.ts";

export interface KencLinkOptions {
  server: Pick<Endpoint, "host" | "port">;
  kencKey: string;
  salt: string;
  /** bytes written before the link is keyed, or not taken by the kernel, before it is cut */
  maxPending: number;
}

export interface KencLinkEvents {
  /** plaintext from the port, in order */
  data(plain: Uint8Array): void;
  /** the link is gone; `answered`: a frame of the port's opened (so the key was right) */
  closed(answered: boolean): void;
  /** why it could not be used: unreachable, or the port's frames did not open */
  failed(reason: string): void;
}

export interface KencLink {
  write(plain: Uint8Array): void;
  end(): void;
}

export function dialKenc(o: KencLinkOptions, on: KencLinkEvents): KencLink {
  const clientRandom = randomBytes(RANDOM_BYTES);
  const hello = new HelloReader();
  let up: Socket<undefined> | null = null;
  let opener: FrameOpener | null = null;
  let sealed: QueuedWriter | null = null;
  let early: Uint8Array[] = [];
  let earlyBytes = 0;
  let answered = false;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    up?.end();
    on.closed(answered);
  };
  const fromPort = (chunk: Uint8Array) => {
    try {
      let bytes = chunk;
      if (opener === null) {
        const h = hello.push(chunk);
        if (h === null) return;
        if (h.version !== KENC_VERSION)
          throw new KencError(`the port answered in KENC version ${h.version}, not ${KENC_VERSION}`);
        const codecs = sessionCodecs(o.kencKey, "client", clientRandom, h.random, o.salt);
        opener = codecs.opener;
        sealed = new QueuedWriter(
          up as Socket<undefined>,
          (plain) => codecs.sealer.seal(plain),
          o.maxPending,
        );
        for (const b of early) sealed.write(b);
        early = [];
        bytes = h.rest;
      }
      for (const plain of opener.push(bytes)) {
        answered = true;
        on.data(plain);
        if (ended) return;
      }
    } catch (e) {
      if (!(e instanceof KencError)) throw e;
      on.failed(`the port's frames: ${e.message}`);
      end();
    }
  };
  Bun.connect({
    hostname: o.server.host,
    port: o.server.port,
    socket: {
      data: (_s, chunk) => fromPort(chunk),
      drain: () => {
        sealed?.flush();
      },
      close: end,
      error: end,
    },
  }).then(
    (s) => {
      if (ended) {
        s.end();
        return;
      }
      up = s;
      s.write(makeHello(clientRandom));
    },
    (err: unknown) => {
      on.failed(`cannot reach the port: ${String(err)}`);
      end();
    },
  );
  return {
    write: (plain) => {
      if (ended) return;
      if (sealed !== null) {
        sealed.write(plain);
        return;
      }
      earlyBytes += plain.length;
      if (earlyBytes > o.maxPending) end();
      else early.push(new Uint8Array(plain));
    },
    end,
  };
}
