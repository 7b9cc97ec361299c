/**
 * The fail-back probe for pass-through pools: their protocols are not spoken by the proxy, so a
 * pool that accepts a connection (and completes TLS when asked) counts as up. A pool that accepts
 * and then sends nothing is found by the miners' sessions (silence closes them, logged) and left
 * again.
 */
import type { Endpoint } from "../../transport/endpoint.ts";

export function probePassthroughPool(endpoint: Endpoint, _agent: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let done = false;
    const timer = setTimeout(() => finish(new Error("connect timeout")), timeoutMs);
    const finish = (error: Error | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(Math.max(0, Math.round((performance.now() - started) * 100) / 100));
    };
    Bun.connect({
      hostname: endpoint.host,
      port: endpoint.port,
      ...(endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      socket: {
        handshake: (s) => {
          finish(null);
          s.end();
        },
        data: () => {},
        error: (_s, e) => finish(e),
        connectError: (_s, e) => finish(e),
      },
    }).then(
      (s) => {
        if (endpoint.tls) return;
        finish(null);
        s.end();
      },
      (e: Error) => finish(e),
    );
  });
}
