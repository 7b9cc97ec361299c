/**
 * Pools reached through another Pithead's tunnel port (spec §4 connect_mode RMS2 5, RMS3 6;
 * docs/rms-tunnel.md, "Upstream"): a farm appliance chained to a server appliance. For each such
 * pool address the port runs the farm-side tunnel client on a loopback port and hands its sessions
 * that loopback endpoint, so every family dials it as a plain TCP pool and all of the port's pool
 * connections cross one tunnel, which resumes after a dropped link without dropping them.
 * The server appliance must share this one's KENC key and, when it asks for one, be given its RMS
 * password: both are one value for the whole appliance (Settings → KENC key, Settings → RMS).
 */
import { type RunningTunnelClient, startTunnelClient } from "../../../client/tunnel-client.ts";
import type { EngineDeps } from "../../../domain/engine.ts";
import { ConnectMode } from "../../../domain/port.ts";
import { type Endpoint, parseEndpoint } from "../endpoint.ts";
import { variantOf } from "./records.ts";

const TUNNEL_MODES: readonly number[] = [ConnectMode.RMS2, ConnectMode.RMS3];

/** What the server appliance asks of this one. */
export interface UplinkCredentials {
  /** read as a tunnel starts: a changed key applies when the port restarts */
  kencKey(): string;
  /** read as each link is dialled, so a corrected password reaches the server at the next retry; "" for none */
  rmsPassword(): string;
}

export const NO_CREDENTIALS: UplinkCredentials = { kencKey: () => "", rmsPassword: () => "" };

/** The operator's KENC key and upstream RMS password as the engine reads them now. */
export function uplinkCredentials(
  deps: Pick<EngineDeps, "kencKey" | "rmsUpstreamPassword">,
): UplinkCredentials {
  return { kencKey: () => deps.kencKey?.() ?? "", rmsPassword: () => deps.rmsUpstreamPassword?.() ?? "" };
}

interface Uplink {
  client: RunningTunnelClient;
  endpoint: Endpoint;
}

export class TunnelUplinks {
  /** "variant host:port" → its client */
  private readonly uplinks = new Map<string, Uplink>();

  constructor(
    private readonly credentials: UplinkCredentials,
    private readonly log: (message: string) => void,
  ) {}

  /** Where the port's sessions dial for a pool address and connect mode (null: unusable address). */
  endpoint(address: string, connectMode: number): Endpoint | null {
    const variant = TUNNEL_MODES.includes(connectMode) ? variantOf(connectMode) : null;
    if (variant === null) return parseEndpoint(address, connectMode);
    const remote = parseEndpoint(address, ConnectMode.TCP);
    if (remote === null || remote.tls) return null;
    const key = `${variant.code} ${remote.host}:${remote.port}`;
    const known = this.uplinks.get(key);
    if (known !== undefined) return known.endpoint;
    const client = startTunnelClient({
      listenHost: "127.0.0.1",
      listenPort: 0,
      server: remote,
      kencKey: this.credentials.kencKey(),
      password: () => this.credentials.rmsPassword(),
      variant,
      log: (m) => this.log(`pool tunnel: ${m}`),
    });
    const endpoint: Endpoint = {
      host: "127.0.0.1",
      port: client.port,
      tls: false,
      via: `${variant.name.toLowerCase()}://${remote.host}:${remote.port}`,
    };
    this.uplinks.set(key, { client, endpoint });
    return endpoint;
  }

  /** Stops the tunnels whose loopback endpoint is none of `used` (the pools changed). */
  retain(used: readonly (Endpoint | null)[]): void {
    for (const [key, u] of this.uplinks)
      if (!used.includes(u.endpoint)) {
        u.client.stop();
        this.uplinks.delete(key);
      }
  }

  stop(): void {
    this.retain([]);
  }
}
