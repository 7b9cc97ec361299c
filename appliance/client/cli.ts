/**
 * `pithead client`: the farm side of KENC and of the RMS tunnel. Listens for plain stratum miners
 * and carries each connection to a remote Pithead KENC port over a link of its own (docs/kenc.md),
 * or, with `--tunnel`, all of them over one tunnel to an RMS / RMS2 / RMS3 port (docs/rms-tunnel.md),
 * presenting the server's RMS password and taking what its RMS settings hand the client: a name,
 * texts to print and, unless `--listen` names the local port, the ports to open.
 */
import { ConnectMode, ListenProtocol } from "../domain/port.ts";
import { parseEndpoint } from "../engine/transport/endpoint.ts";
import type { ClientSettings, MappedPort } from "../engine/transport/tunnel/frames.ts";
import { type Variant, variantOf } from "../engine/transport/tunnel/records.ts";
import { kencDerived } from "../web/api/security.ts";
import { startKencClient } from "./kenc-client.ts";
import { PortMapping } from "./port-mapping.ts";
import { type RunningTunnelClient, startTunnelClient, type TunnelClientOptions } from "./tunnel-client.ts";

export const CLIENT_HELP = `usage: pithead client --server HOST:PORT [--listen [ADDR:]PORT] [--kenc-key KEY]
                      [--tunnel rms|rms2|rms3 [--password P] [--name NAME] [--bind ADDR]]

Carries each plain stratum miner that connects to the local port (default 0.0.0.0:3333) to the
Pithead KENC port HOST:PORT, one KENC connection per miner; with --tunnel, all miners over one
tunnel to the Pithead port HOST:PORT whose protocol is that variant (RMS2 compresses with deflate,
RMS3 with zstd and sends a job once for all miners). The key is --kenc-key or, kept out of the
process list, the environment variable PITHEAD_KENC_KEY; it must be the server's Settings → KENC
key (compare md5(key)[8:24], printed at start, with the console's derived value).

With --tunnel the client presents the server's RMS password (--password, or PITHEAD_RMS_PASSWORD)
and goes by NAME (default: the client name of the server's RMS settings). Without --listen it opens
the ports of the server's port mapping, on ADDR (--bind, default 0.0.0.0), each over a tunnel of its
own; with --listen it serves that one port over the tunnel to HOST:PORT.`;

const TUNNELS: Record<string, number> = {
  rms: ListenProtocol.RMS,
  rms2: ListenProtocol.RMS2,
  rms3: ListenProtocol.RMS3,
};

const DEFAULT_LISTEN = { host: "0.0.0.0", port: 3333 };

interface ClientArgs {
  server: { host: string; port: number };
  /** null: KENC listens on the default; a tunnel opens the server's port mapping */
  listen: { host: string; port: number } | null;
  /** where the mapped ports listen */
  bind: string;
  kencKey: string;
  /** the tunnel variant (spec §4 code), or null: one KENC link per miner */
  tunnel: number | null;
  /** the server's RMS password, "" for none */
  password: string;
  /** the name the client reports, null: the server's client name */
  name: string | null;
}

export class ClientArgsError extends Error {}

export function parseClientArgs(argv: string[], env: Record<string, string | undefined>): ClientArgs {
  let server: ClientArgs["server"] | null = null;
  let listen: ClientArgs["listen"] = null;
  let bind: string | null = null;
  let kencKey = env.PITHEAD_KENC_KEY ?? "";
  let tunnel: number | null = null;
  let password = env.PITHEAD_RMS_PASSWORD ?? "";
  let name: string | null = null;
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
        listen = { host: m[1] ?? DEFAULT_LISTEN.host, port };
        break;
      }
      case "--bind":
        bind = value;
        break;
      case "--kenc-key":
        kencKey = value;
        break;
      case "--tunnel":
        tunnel = TUNNELS[value.toLowerCase()] ?? null;
        if (tunnel === null) throw new ClientArgsError(`--tunnel is rms, rms2 or rms3, not "${value}"`);
        break;
      case "--password":
        password = value;
        break;
      case "--name":
        name = value.trim();
        break;
      default:
        throw new ClientArgsError(`unknown option ${flag}`);
    }
  }
  if (server === null) throw new ClientArgsError("--server HOST:PORT is required");
  if (tunnel === null && (password !== "" || name !== null || bind !== null))
    throw new ClientArgsError("--password, --name and --bind are the RMS tunnel's: they need --tunnel");
  if (listen !== null && bind !== null)
    throw new ClientArgsError("--bind is for the mapped ports: --listen names its own address");
  // the console stores the key trimmed; the same string must feed the KDF at both ends
  kencKey = kencKey.trim();
  if (kencKey === "") throw new ClientArgsError("a KENC key is required (--kenc-key or PITHEAD_KENC_KEY)");
  return { server, listen, bind: bind ?? DEFAULT_LISTEN.host, kencKey, tunnel, password, name };
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
  const say = (m: string) => console.log(m);
  const variant = args.tunnel === null ? null : variantOf(args.tunnel);
  const stop = variant === null ? runKenc(args, say) : runTunnel(args, variant, say);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  stop();
  return 0;
}

/** The start line of a local port: where it listens, where its miners go, over what. */
const startLine = (args: ClientArgs, host: string, port: number, serverPort: number, over: string) =>
  `pithead client listening on ${host}:${port}, carrying miners to ${args.server.host}:${serverPort} over ${over} (key ${kencDerived(args.kencKey)})`;

function runKenc(args: ClientArgs, say: (m: string) => void): () => void {
  const listen = args.listen ?? DEFAULT_LISTEN;
  const client = startKencClient({
    listenHost: listen.host,
    listenPort: listen.port,
    server: args.server,
    kencKey: args.kencKey,
    log: say,
  });
  say(startLine(args, listen.host, client.port, args.server.port, "KENC"));
  return () => client.stop();
}

function runTunnel(args: ClientArgs, variant: Variant, say: (m: string) => void): () => void {
  const tunnelTo = (
    serverPort: number,
    v: Variant,
    listen: { host: string; port: number | null },
    settings?: (s: ClientSettings) => void,
  ): RunningTunnelClient =>
    startTunnelClient({
      listenHost: listen.host,
      listenPort: listen.port,
      server: { host: args.server.host, port: serverPort },
      kencKey: args.kencKey,
      variant: v,
      password: args.password,
      ...(args.name === null ? {} : { name: args.name }),
      ...(settings === undefined ? {} : { settings }),
      log: say,
    } satisfies TunnelClientOptions);
  const texts = new HandedTexts(args.name, say);
  if (args.listen !== null) {
    const client = tunnelTo(args.server.port, variant, args.listen, (s) => texts.show(s));
    say(
      `${startLine(args, args.listen.host, client.port, args.server.port, `one ${variant.name} tunnel`)}; --listen given: the server's port mapping is not used`,
    );
    return () => client.stop();
  }
  // the mapping arrives with the first welcome, after `mapping` below exists
  const named = tunnelTo(args.server.port, variant, { host: args.bind, port: null }, (s) => {
    texts.show(s);
    mapping.apply(s.ports);
  });
  const mapping = new PortMapping({
    named: { client: named, server: args.server.port, variant: variant.code },
    start: (p) => tunnelTo(p.server, variantOf(p.variant) as Variant, { host: args.bind, port: p.local }),
    say,
    started: (p: MappedPort, bound: number) =>
      `${startLine(args, args.bind, bound, p.server, `one ${variantOf(p.variant)?.name} tunnel`)}, port "${p.remark}" of the server's mapping`,
  });
  say(
    `pithead client: connecting to ${args.server.host}:${args.server.port} (${variant.name}) for the server's port mapping`,
  );
  return () => {
    mapping.stop();
    named.stop();
  };
}

/** Prints the name, announcement and other info the server hands, at first and when they change. */
class HandedTexts {
  private shown = { name: "", announcement: "", other: "" };

  constructor(
    private readonly name: string | null,
    private readonly say: (m: string) => void,
  ) {}

  show(s: ClientSettings): void {
    const name = this.name ?? s.name;
    const was = this.shown;
    this.shown = { name, announcement: s.announcement, other: s.other };
    if (name !== was.name)
      this.say(
        `client name: ${name || "(none)"} (${this.name === null ? "from the server's RMS settings" : "--name"})`,
      );
    if (s.announcement !== was.announcement && s.announcement !== "")
      this.say(`announcement: ${s.announcement}`);
    if (s.other !== was.other && s.other !== "") this.say(`other info: ${s.other}`);
  }
}
