/**
 * The farm side of KENC (`pithead client`, docs/kenc.md): a local port for plain stratum miners,
 * each of whose connections is carried to a remote Pithead KENC port over a KENC connection of its
 * own. Whatever ends one side ends the other, so a miner sees its pool connection drop exactly
 * when the link does, and reconnects as it would to a pool.
 */
import type { Socket, TCPSocketListener } from "bun";
import type { Endpoint } from "../engine/transport/endpoint.ts";
import { HKDF_SALT } from "../engine/transport/kenc-codec.ts";
import { MAX_PENDING_BYTES } from "../engine/transport/line-writer.ts";
import { QueuedWriter } from "../engine/transport/queued-writer.ts";
import { RefusalLog } from "../engine/transport/refusal-log.ts";
import { dialKenc, type KencLink } from "./kenc-link.ts";

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
  miner: Socket<Link>;
  /** plaintext back to the miner */
  toMiner: QueuedWriter;
  up: KencLink | null;
  /** bytes the miner has sent */
  minerBytes: number;
  /** the link said why it failed: no guess about the key */
  failed: boolean;
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
  const listener: TCPSocketListener<Link> = Bun.listen<Link>({
    hostname: o.listenHost,
    port: o.listenPort,
    socket: {
      open: (miner) => {
        const l: Link = {
          miner,
          toMiner: new QueuedWriter(miner, (plain) => plain),
          up: null,
          minerBytes: 0,
          failed: false,
          closed: false,
        };
        miner.data = l;
        links.add(l);
        l.up = dialKenc(
          { server: o.server, kencKey: o.kencKey, salt: HKDF_SALT, maxPending: MAX_PENDING_BYTES },
          {
            data: (plain) => l.toMiner.write(plain),
            closed: (answered) => {
              // the port closes a link whose first frame does not authenticate, and says nothing
              if (!l.closed && !answered && !l.failed && l.minerBytes > 0)
                refusals.refused(
                  server,
                  "the port closed the link before answering: is this its KENC key, and is the appliance at least as new as this client?",
                );
              close(l);
            },
            failed: (reason) => {
              l.failed = true;
              refusals.refused(server, reason);
            },
          },
        );
      },
      data: (miner, chunk) => {
        const l = miner.data;
        l.minerBytes += chunk.length;
        l.up?.write(chunk);
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
