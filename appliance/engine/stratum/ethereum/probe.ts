/**
 * A short session that asks a pool for EthereumStratum/1.0.0 and times the first answer: the ping
 * button and the fail-back probe. Any well-formed answer counts, a refusal too: a pool that speaks
 * only ETHPROXY refuses the subscribe but is up, and a login would need a wallet the probe lacks.
 */
import type { Socket } from "bun";
import type { Endpoint } from "../../transport/endpoint.ts";
import { LineSplitter } from "../line-codec.ts";
import { parseMessage, requestLine } from "../message.ts";
import { NICEHASH_PROTOCOL, NicehashMethod } from "./methods.ts";

const PROBE_MAX_LINE = 4096;

export function probeEthereumPool(endpoint: Endpoint, agent: string, timeoutMs: number): Promise<number> {
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
    const hello = requestLine(1, NicehashMethod.SUBSCRIBE, [agent, NICEHASH_PROTOCOL]);
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
