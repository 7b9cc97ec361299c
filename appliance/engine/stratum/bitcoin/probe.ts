/**
 * A short Bitcoin-stratum session that only subscribes: how long a pool takes to answer
 * mining.subscribe (the ping button, the fail-back probe).
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { Upstream } from "./upstream.ts";

export function probeBitcoinPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let done = false;
    const u = new Upstream(
      endpoint,
      { agent, versionRolling: false, connectTimeoutMs: timeoutMs, jobTimeoutMs: timeoutMs },
      {
        onSubscribed: () => {
          done = true;
          resolve(Math.max(0, Math.round((performance.now() - started) * 100) / 100));
          u.close("probe done");
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
