/**
 * A short CryptoNote session that only logs in: how long a pool takes to answer `login` (the
 * fail-back probe). CryptoNote has no subscribe step, so the probe logs in as "x"; a pool that
 * refuses that login has still answered and counts as up.
 */
import type { Endpoint } from "../../transport/endpoint.ts";
import { LOGIN_REFUSED, Upstream } from "./upstream.ts";

export function probeCryptoNotePool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let done = false;
    const finish = (): void => {
      done = true;
      resolve(Math.max(0, Math.round((performance.now() - started) * 100) / 100));
    };
    const u = new Upstream(
      endpoint,
      // it closes at the first job or the timeout, before a keepalive could be due
      { agent, connectTimeoutMs: timeoutMs, jobTimeoutMs: timeoutMs, keepaliveMs: timeoutMs },
      { user: "x", pass: "x", rigid: null, algos: null },
      {
        onJob: () => {
          if (!done) finish();
          u.close("probe done");
        },
        onClosed: (_u, reason) => {
          if (done) return;
          if (reason.startsWith(LOGIN_REFUSED)) finish();
          else {
            done = true;
            reject(new Error(reason));
          }
        },
      },
    );
    u.start();
  });
}
