/**
 * What a tunnel port hands its clients at each connect and resume (docs/rms-tunnel.md, "Handshake:
 * the RMS settings"): the settings' texts and the port mapping, made from the RMS settings and the
 * appliance's running tunnel ports, and the password they must present.
 */
import type { Port } from "../../../domain/port.ts";
import type { RmsSettings } from "../../../domain/rms.ts";
import type { ClientSettings, MappedPort } from "./frames.ts";
import { variantOf } from "./records.ts";

export interface TunnelHandout {
  /** "" for none */
  password: string;
  /** how long either end of a tunnel holds its records for more frames, in ms; 0: not at all */
  batchMs: number;
  settings: ClientSettings;
}

/** A running port as the mapping names it: its bound number, protocol, coin and name. */
export type HandoutPort = Pick<Port, "port" | "protocol" | "category" | "name">;

/**
 * Default mode maps every tunnel port to the same number locally; custom mode maps the pairs of the
 * settings, leaving out a server port that is no running tunnel port (the client could not reach
 * it). Each mapped port carries its remark "category-title" (spec §3), the title being its name or,
 * without one, its number.
 */
export function tunnelHandout(rms: RmsSettings, running: readonly HandoutPort[]): TunnelHandout {
  const tunnels = new Map(running.filter((p) => variantOf(p.protocol) !== null).map((p) => [p.port, p]));
  const pairs =
    rms.port_mode === "custom"
      ? rms.port_map
      : [...tunnels.keys()].sort((a, b) => a - b).map((port) => ({ server: port, local: port }));
  const ports = pairs.flatMap(({ server, local }): MappedPort[] => {
    const p = tunnels.get(server);
    if (p === undefined) return [];
    return [{ server, variant: p.protocol, local, remark: `${p.category}-${p.name.trim() || p.port}` }];
  });
  return {
    password: rms.password,
    batchMs: rms.batch_ms,
    settings: { name: rms.client_name, announcement: rms.announcement, other: rms.other, ports },
  };
}
