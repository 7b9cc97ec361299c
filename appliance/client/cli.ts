/**
 * `pithead client`: the farm side of KENC and of the RMS tunnel. Listens for plain stratum miners
 * and carries each connection to a remote Pithead KENC port over a link of its own (docs/kenc.md),
 * or, with `--tunnel`, all of them over one tunnel to an RMS / RMS2 / RMS3 port (docs/rms-tunnel.md).
 * The console's RMS settings (`--password`, port mappings) are not implemented and refused.
 */
import { ConnectMode, ListenProtocol } from "../domain/port.ts";
import { parseEndpoint } from "../engine/transport/endpoint.ts";
import { variantOf } from "../engine/transport/tunnel/records.ts";
import { kencDerived } from "../web/api/security.ts";
import { startKencClient } from "./kenc-client.ts";
import { startTunnelClient } from "./tunnel-client.ts";

export const CLIENT_HELP = `usage: pithead client --server HOST:PORT [--listen [ADDR:]PORT] [--kenc-key KEY] [--tunnel rms|rms2|rms3]

Carries each plain stratum miner that connects to the local port (default 0.0.0.0:3333) to the
Pithead KENC port HOST:PORT, one KENC connection per miner; with --tunnel, all miners over one
tunnel to the Pithead port HOST:PORT whose protocol is that variant (RMS2 compresses with deflate,
RMS3 with zstd and sends a job once for all miners). The key is --kenc-key or, kept out of the
process list, the environment variable PITHEAD_KENC_KEY; it must be the server's Settings → KENC
key (compare md5(key)[8:24], printed at start, with the console's derived value).`;

const TUNNELS: Record<string, number> = {
  rms: ListenProtocol.RMS,
  rms2: ListenProtocol.RMS2,
  rms3: ListenProtocol.RMS3,
};

interface ClientArgs {
  server: { host: string; port: number };
  listen: { host: string; port: number };
  kencKey: string;
  /** the tunnel variant (spec §4 code), or null: one KENC link per miner */
  tunnel: number | null;
}

export class ClientArgsError extends Error {}

export function parseClientArgs(argv: string[], env: Record<string, string | undefined>): ClientArgs {
  let server: ClientArgs["server"] | null = null;
  let listen = { host: "0.0.0.0", port: 3333 };
  let kencKey = env.PITHEAD_KENC_KEY ?? "";
  let tunnel: number | null = null;
  const args = [...argv];
  while (args.length > 0) {
    const flag = args.shift() as string;
    const value = args.shift();
    if (value === undefined) throw new ClientArgsError(`${flag} needs a value`);
    switch (flag) {
      case "--server": {
        const e = parseEndpoint(value, ConnectMode.TCP);
        if (e === null || e.tls) throw new ClientArgsError(`--server needs HOST:PORT, not "${value}"`);
        server = { host: e.host, port: e.port };
        break;
      }
      case "--listen": {
        // port 0: any free port, which the start line names
        const m = /^(?:(.+):)?(\d+)$/.exec(value);
        const port = Number(m?.[2]);
        if (!m || port > 65535) throw new ClientArgsError(`--listen needs [ADDR:]PORT, not "${value}"`);
        listen = { host: m[1] ?? "0.0.0.0", port };
        break;
      }
      case "--kenc-key":
        kencKey = value;
        break;
      case "--tunnel":
        tunnel = TUNNELS[value.toLowerCase()] ?? null;
        if (tunnel === null) throw new ClientArgsError(`--tunnel is rms, rms2 or rms3, not "${value}"`);
        break;
      case "--password":
        throw new ClientArgsError(
          "--password (the console's RMS settings) is not implemented; the tunnel is authenticated by --kenc-key",
        );
      default:
        throw new ClientArgsError(`unknown option ${flag}`);
    }
  }
  if (server === null) throw new ClientArgsError("--server HOST:PORT is required");
  // the console stores the key trimmed; the same string must feed the KDF at both ends
  kencKey = kencKey.trim();
  if (kencKey === "") throw new ClientArgsError("a KENC key is required (--kenc-key or PITHEAD_KENC_KEY)");
  return { server, listen, kencKey, tunnel };
}

export async function runClientCli(argv: string[], env = process.env): Promise<number> {
  let args: ClientArgs;
  try {
    args = parseClientArgs(argv, env);
  } catch (err) {
    if (!(err instanceof ClientArgsError)) throw err;
    console.error(`pithead client: ${err.message}\n\n${CLIENT_HELP}`);
    return 2;
  }
  const options = {
    listenHost: args.listen.host,
    listenPort: args.listen.port,
    server: args.server,
    kencKey: args.kencKey,
    log: (m: string) => console.log(m),
  };
  const variant = args.tunnel === null ? null : variantOf(args.tunnel);
  const client = variant === null ? startKencClient(options) : startTunnelClient({ ...options, variant });
  console.log(
    `pithead client listening on ${args.listen.host}:${client.port}, carrying miners to ${args.server.host}:${args.server.port} over ${variant === null ? "KENC" : `one ${variant.name} tunnel`} (key ${kencDerived(args.kencKey)})`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  client.stop();
  return 0;
}
