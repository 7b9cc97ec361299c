/** A port's listener with the front-end its transport asks for (SOCKS5, KENC, the RMS tunnel) before its stratum. */
import { ListenProtocol, type Port } from "../../domain/port.ts";
import { frontOf, socksCredentials } from "../../domain/transports.ts";
import { kencFront } from "./kenc.ts";
import { type ConnectionHooks, type RunningListener, startListener } from "./listener.ts";
import { socks5Front } from "./socks5.ts";
import { variantOf } from "./tunnel/records.ts";
import { tunnelFront } from "./tunnel/server.ts";

export interface FrontDeps {
  /** the port's configuration now: SOCKS5 credentials are read from it for each connection */
  config: () => Pick<Port, "setting">;
  /** the operator's KENC key now ("" when none is set) */
  kencKey: () => string;
  log: (message: string) => void;
}

export function startFrontedListener<T>(
  hostname: string,
  config: Pick<Port, "port" | "protocol" | "setting">,
  tls: () => { cert: string; key: string },
  hooks: ConnectionHooks<T>,
  deps: FrontDeps,
): RunningListener {
  const { port, protocol } = config;
  const variant = variantOf(protocol);
  if (variant !== null) {
    // the tunnel's link is KENC on plain TCP, like a KENC port's (docs/rms-tunnel.md says why)
    const front = tunnelFront(hooks, variant, deps.log, deps.kencKey);
    const l = startListener(hostname, port, ListenProtocol.TCP, tls, front.hooks);
    return {
      port: l.port,
      stop: () => {
        l.stop();
        front.stop();
      },
    };
  }
  switch (frontOf(config)) {
    case "socks5":
      return startListener(
        hostname,
        port,
        protocol,
        tls,
        socks5Front(hooks, deps.log, () => socksCredentials(deps.config().setting)),
      );
    case "kenc":
      return startListener(hostname, port, ListenProtocol.TCP, tls, kencFront(hooks, deps.log, deps.kencKey));
    case null:
      return startListener(hostname, port, protocol, tls, hooks);
  }
}
