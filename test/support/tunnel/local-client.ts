/** `pithead client --tunnel` for tests and benches: on 127.0.0.1, to a tunnel port on 127.0.0.1. */
import {
  type RunningTunnelClient,
  startTunnelClient,
  type TunnelClientOptions,
} from "../../../appliance/client/tunnel-client.ts";
import { variantOf } from "../../../appliance/engine/transport/tunnel/records.ts";

/** Starts the client for the port's protocol (RMS 2, RMS2 5, RMS3 6); `cleanup` stops it. */
export function localTunnelClient(
  cleanup: Array<() => Promise<void> | void>,
  serverPort: number,
  kencKey: string,
  protocol: number,
  more: Partial<
    Pick<TunnelClientOptions, "log" | "retryMs" | "timing" | "password" | "name" | "settings">
  > = {},
): RunningTunnelClient {
  const variant = variantOf(protocol);
  if (variant === null) throw new Error(`protocol ${protocol} is not a tunnel`);
  const client = startTunnelClient({
    listenHost: "127.0.0.1",
    listenPort: 0,
    server: { host: "127.0.0.1", port: serverPort },
    kencKey,
    variant,
    log: () => {},
    ...more,
  });
  cleanup.push(() => client.stop());
  return client;
}
