/** A port's listener with the front-end its transport asks for (SOCKS5, KENC, the RMS tunnel) before its stratum. */
import { ListenProtocol, type Port } from "../../domain/port.ts";
import { frontOf, socksCredentials } from "../../domain/transports.ts";
import { kencFront } from "./kenc.ts";
import { type ConnectionHooks, type RunningListener, startListener } from "./listener.ts";
import { socks5Front } from "./socks5.ts";
import type { TunnelHandout } from "./tunnel/handout.ts";
import { variantOf } from "./tunnel/records.ts";
import { type TunnelInfo, tunnelFront } from "./tunnel/server.ts";

export interface FrontDeps {
  /** the port's configuration now: SOCKS5 credentials are read from it for each connection */
  config: () => Pick<Port, "setting">;
  /** the operator's KENC key now ("" when none is set) */
  kencKey: () => string;
  /** what the RMS settings hand a tunnel port's clients now */
  handout: () => TunnelHandout;
  log: (message: string) => void;
}

export interface FrontedListener extends RunningListener {
  /** a tunnel port's tunnels; none on another transport */
  tunnels(): TunnelInfo[];
}

const NO_TUNNELS = (): TunnelInfo[] => [];

export function startFrontedListener<T>(
  hostname: string,
  config: Pick<Port, "port" | "protocol" | "setting">,
  tls: () => { cert: string; key: string },
  hooks: ConnectionHooks<T>,
  deps: FrontDeps,
): FrontedListener {
  const { port, protocol } = config;
  const variant = variantOf(protocol);
  if (variant !== null) {
    // the tunnel's link is KENC on plain TCP, like a KENC port's (docs/rms-tunnel.md says why)
    const front = tunnelFront(hooks, variant, deps);
    const l = startListener(hostname, port, ListenProtocol.TCP, tls, front.hooks);
    return {
      port: l.port,
      tunnels: front.tunnels,
      stop: () => {
        l.stop();
        front.stop();
      },
    };
  }
  return { ...otherFront(hostname, config, tls, hooks, deps), tunnels: NO_TUNNELS };
}

function otherFront<T>(
  hostname: string,
  { port, protocol, setting }: Pick<Port, "port" | "protocol" | "setting">,
  tls: () => { cert: string; key: string },
  hooks: ConnectionHooks<T>,
  deps: FrontDeps,
): RunningListener {
  switch (frontOf({ protocol, setting })) {
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
