/** An RMS3 port on a test engine behind a TcpRelay, so that a test can read what crossed its link. */
import { ListenProtocol } from "../../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../../appliance/domain/rms.ts";
import { startKencPort } from "../kenc/kenc-port.ts";
import { TcpRelay } from "./tcp-relay.ts";

/** `batchMs`: the RMS settings' batch window the port hands its clients; `cleanup` stops all. */
export async function relayedRms3Port(cleanup: Array<() => Promise<void> | void>, key: string, batchMs = 0) {
  const p = await startKencPort(
    cleanup,
    key,
    [],
    { protocol: ListenProtocol.RMS3 },
    { rms: () => ({ ...RMS_DEFAULTS, batch_ms: batchMs }) },
  );
  const relay = new TcpRelay(p.listen);
  cleanup.push(() => relay.stop());
  return { ...p, relay };
}
