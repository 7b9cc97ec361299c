/**
 * A short session that sends one request line and times the pool's answer to it: the ping button and
 * the fail-back probe of families whose first request needs no wallet (a subscribe). Any well-formed
 * answer with id 1 counts, a refusal too: the pool is up, and logging in would need a wallet the
 * probe lacks.
 */
import type { Socket } from "bun";
import type { Endpoint } from "../transport/endpoint.ts";
import { LineSplitter } from "./line-codec.ts";
import { parseMessage } from "./message.ts";

const PROBE_MAX_LINE = 4096;

/** `hello` must be one request line with id 1. */
export function probeByRequest(endpoint: Endpoint, hello: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let socket: Socket<undefined> | null = null;
    let done = false;
    const finish = (error: string | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket?.end();
      if (error === null) resolve(Math.max(0, Math.round((performance.now() - started) * 100) / 100));
      else reject(new Error(error));
    };
    const timer = setTimeout(() => finish("no answer in time"), timeoutMs);
    const splitter = new LineSplitter(PROBE_MAX_LINE, {
      onLine: (line) => {
        const m = parseMessage(line);
        if (m?.kind === "response" && m.id === 1) finish(null);
      },
      onOverflow: () => finish("line too long from pool"),
    });
    Bun.connect({
      hostname: endpoint.host,
      port: endpoint.port,
      ...(endpoint.tls ? { tls: { rejectUnauthorized: false } } : {}),
      socket: {
        open: (s) => {
          if (!endpoint.tls) s.write(hello);
        },
        handshake: (s) => s.write(hello),
        data: (_s, chunk) => splitter.push(chunk),
        close: () => finish("closed by pool"),
        error: (_s, e) => finish(`socket error: ${e.message}`),
        connectError: (_s, e) => finish(`connect failed: ${e.message}`),
      },
    }).then(
      (s) => {
        socket = s;
        if (done) s.end();
      },
      (e: Error) => finish(`connect failed: ${e.message}`),
    );
  });
}
