/** Where an upstream lives: parsed once from the port's "host:port" field and its connect mode. */
import { ConnectMode } from "../../domain/port.ts";

export interface Endpoint {
  host: string;
  port: number;
  tls: boolean;
  /**
   * what the operator configured when this is a tunnel's loopback port (`rms3://host:port`): logs
   * name the pool the operator knows, not a port the appliance picked
   */
  via?: string;
}

const SCHEME = /^(stratum\+(tcp|ssl|tls)|tcp|ssl|tls):\/\//i;

/** Accepts `host:port`, `[v6]:port` and `stratum+tcp://host:port`; null when unusable. */
export function parseEndpoint(address: string, connectMode: number): Endpoint | null {
  let a = address.trim();
  let tls = connectMode === ConnectMode.SSL;
  const scheme = SCHEME.exec(a);
  if (scheme) {
    if (/ssl|tls/i.test(scheme[1] ?? "")) tls = true;
    a = a.slice(scheme[0].length);
  }
  a = a.replace(/\/.*$/, "");
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(a) ?? /^([^:\s]+):(\d+)$/.exec(a);
  if (!m) return null;
  const port = Number(m[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: m[1] as string, port, tls };
}

export const endpointText = (e: Endpoint): string =>
  e.via ?? `${e.tls ? "ssl" : "tcp"}://${e.host}:${e.port}`;
