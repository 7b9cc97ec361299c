/**
 * POST /api/ping: connect to an upstream and time how long it takes to answer mining.subscribe.
 */
import { ConnectMode } from "../domain/port.ts";
import { parseEndpoint } from "./transport/endpoint.ts";
import { PROXY_AGENT, Upstream } from "./upstream.ts";

export function pingUpstream(address: string, connType: number, timeoutMs: number): Promise<number> {
  const ep = parseEndpoint(address, connType === ConnectMode.SSL ? ConnectMode.SSL : ConnectMode.TCP);
  if (ep === null) return Promise.reject(new Error("invalid pool address"));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let done = false;
    const u = new Upstream(
      ep,
      { agent: PROXY_AGENT, versionRolling: false, connectTimeoutMs: timeoutMs, jobTimeoutMs: timeoutMs },
      {
        onSubscribed: () => {
          done = true;
          resolve(Math.max(0, Math.round((performance.now() - started) * 100) / 100));
          u.close("ping done");
        },
        onJob: () => {},
        onVersionMask: () => {},
        onReconnectRequest: () => {},
        onClosed: (_u, reason) => {
          if (!done) {
            done = true;
            reject(new Error(reason));
          }
        },
      },
    );
    u.start();
  });
}
