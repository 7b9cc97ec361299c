/**
 * Worker thread entry: the stratum engine — every proxy port, its sockets and the device registry —
 * on a thread of its own, so that nothing the main thread does (HTTP requests, SQLite writes, alert
 * evaluation) can delay a share. It answers engine-thread.ts's calls and posts the engine's callbacks
 * back as events, in order. appliance/workers.ts makes it an entry of its own in every build.
 */
import { EngineHost } from "./engine-host.ts";
import type { EngineCall, EngineEvent, EngineReply, FromEngine, ToEngine } from "./thread-protocol.ts";
import { TurnBatch } from "./turn-batch.ts";

const scope = globalThis as unknown as Worker;
const out = new TurnBatch<EngineEvent | EngineReply>((items: FromEngine) => scope.postMessage(items));
let host: EngineHost | null = null;

const failure = (id: number, err: unknown): EngineReply => ({
  type: "reply",
  id,
  ok: false,
  error: err instanceof Error ? err.message : String(err),
});

function answer(call: EngineCall): void {
  let result: unknown;
  try {
    if (host === null) throw new Error("the engine thread was not started");
    result = host.call(call.method, call.args);
  } catch (err) {
    out.push(failure(call.id, err));
    return;
  }
  if (!(result instanceof Promise)) {
    out.push({ type: "reply", id: call.id, ok: true, value: result });
    return;
  }
  result.then(
    (value: unknown) => out.push({ type: "reply", id: call.id, ok: true, value }),
    (err: unknown) => out.push(failure(call.id, err)),
  );
}

scope.onmessage = (e: MessageEvent<ToEngine>) => {
  const message = e.data;
  if (message.type === "init") host = new EngineHost(message, (event) => out.push(event));
  else for (const call of message.calls) answer(call);
};
