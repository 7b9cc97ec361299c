/**
 * Per-stream flow control of the RMS tunnel over real sockets: a miner that stops reading holds up
 * its own stream only. The port side pushes megabytes to two streams of one tunnel; behind the
 * client one miner reads everything, the other (a process that never calls recv, with a small
 * receive buffer) reads nothing. The reading miner gets every byte, and the port could hand the
 * stuck stream no more than its window and what the kernel buffers hold.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { emptySetting, ListenProtocol } from "../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../appliance/domain/rms.ts";
import { startFrontedListener } from "../../appliance/engine/transport/fronted-listener.ts";
import type { ByteSocket } from "../../appliance/engine/transport/line-writer.ts";
import type { ConnectionHooks } from "../../appliance/engine/transport/listener.ts";
import { tunnelHandout } from "../../appliance/engine/transport/tunnel/handout.ts";
import { DEFAULT_WINDOW } from "../../appliance/engine/transport/tunnel/session.ts";
import { testCertificate, until } from "../support/stratum/port-fixture.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "flow control 5e2d";
const TOTAL = 16 * 1024 * 1024;
const CHUNK = 16 * 1024;

/** One stream at the port: writes TOTAL bytes as fast as the stream's credit lets it. */
class Pump {
  accepted = 0;
  constructor(readonly socket: ByteSocket) {}

  /** Writes until the stream pushes back (a short write) or everything is out. */
  run(): void {
    while (this.accepted < TOTAL) {
      const chunk = new Uint8Array(Math.min(CHUNK, TOTAL - this.accepted)).fill(0x61 + (this.accepted % 26));
      const n = this.socket.write(chunk);
      this.accepted += n;
      if (n < chunk.length) return;
    }
  }
}

test("a miner that does not read stalls its own stream, not the others", async () => {
  const pumps: Pump[] = [];
  const hooks: ConnectionHooks<Pump> = {
    open: (socket) => {
      const p = new Pump(socket);
      pumps.push(p);
      return p;
    },
    data: () => {},
    drain: (p) => p.run(),
    close: () => {},
  };
  const config = { port: 0, protocol: ListenProtocol.RMS3, setting: emptySetting() };
  const server = startFrontedListener("127.0.0.1", config, testCertificate, hooks, {
    config: () => config,
    kencKey: () => KEY,
    handout: () => tunnelHandout(RMS_DEFAULTS, []),
    log: () => {},
  });
  cleanup.push(() => server.stop());
  const client = localTunnelClient(cleanup, server.port, KEY, ListenProtocol.RMS3);

  // the stuck miner: connects, shrinks its receive buffer, never reads
  const stuck = Bun.spawn(
    [
      "python3",
      "-c",
      "import socket,sys,time\ns=socket.socket()\ns.setsockopt(socket.SOL_SOCKET,socket.SO_RCVBUF,4096)\ns.connect(('127.0.0.1',int(sys.argv[1])))\nprint('connected',flush=True)\ntime.sleep(600)",
      String(client.port),
    ],
    { stdout: "pipe" },
  );
  cleanup.push(async () => {
    stuck.kill();
    await stuck.exited;
  });
  await until(() => pumps.length === 1);
  let got = 0;
  let wrong = 0;
  const reader = await Bun.connect({
    hostname: "127.0.0.1",
    port: client.port,
    socket: {
      data: (_s, d) => {
        for (const b of d) {
          // the pump writes each 16 KB chunk as one letter, so every byte is checkable
          if (b !== 0x61 + ((Math.floor(got / CHUNK) * CHUNK) % 26)) wrong++;
          got++;
        }
      },
    },
  });
  cleanup.push(() => {
    reader.end();
  });
  await until(() => pumps.length === 2);
  const [stuckPump, readingPump] = pumps as [Pump, Pump];
  stuckPump.run();
  readingPump.run();

  await until(() => got === TOTAL, 20);
  expect(wrong).toBe(0);
  expect(readingPump.accepted).toBe(TOTAL);
  // the stuck stream took its window and what the kernel buffers between client and miner hold
  // (the client's send buffer grows to tcp_wmem's maximum; the miner's receive buffer is 4 KB,
  // which the kernel doubles), not what was offered to it
  const wmemMax = Number((await Bun.file("/proc/sys/net/ipv4/tcp_wmem").text()).trim().split(/\s+/)[2]);
  expect(stuckPump.accepted).toBeLessThanOrEqual(DEFAULT_WINDOW + wmemMax + 64 * 1024);
  expect(stuckPump.accepted).toBeLessThan(TOTAL);
  expect(stuckPump.accepted).toBeGreaterThanOrEqual(DEFAULT_WINDOW);
});
