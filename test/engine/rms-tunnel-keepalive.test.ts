/**
 * Keepalive over real sockets: the tunnel's link stalls without closing (a relay that swallows every
 * byte both ways, as a stalled 4G uplink does). The client hears nothing for `deadMs`, drops the
 * link, dials again and resumes; the lines a miner sent into the black hole arrive after all, and
 * the miner's connection never closed. The port side echoes each stream's bytes back.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import type { Socket } from "bun";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../appliance/domain/rms.ts";
import type { ByteSocket } from "../../appliance/engine/transport/line-writer.ts";
import { type ConnectionHooks, startListener } from "../../appliance/engine/transport/listener.ts";
import { tunnelHandout } from "../../appliance/engine/transport/tunnel/handout.ts";
import { variantOf } from "../../appliance/engine/transport/tunnel/records.ts";
import { DEFAULT_TUNNEL_SERVER, tunnelFront } from "../../appliance/engine/transport/tunnel/server.ts";
import { testCertificate, until } from "../support/stratum/port-fixture.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { TcpRelay } from "../support/tunnel/tcp-relay.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "keepalive 2c7e";
const TIMING = { keepaliveMs: 100, deadMs: 2000 };

test("a link that stalls without closing is dropped after deadMs and the tunnel resumes", async () => {
  const echo: ConnectionHooks<ByteSocket> = {
    open: (socket) => socket,
    data: (socket, chunk) => {
      socket.write(new Uint8Array(chunk));
    },
    drain: () => {},
    close: () => {},
  };
  const variant = variantOf(ListenProtocol.RMS2);
  if (variant === null) throw new Error("no RMS2");
  const front = tunnelFront(
    echo,
    variant,
    { log: () => {}, kencKey: () => KEY, handout: () => tunnelHandout(RMS_DEFAULTS, []) },
    { ...DEFAULT_TUNNEL_SERVER, timing: TIMING },
  );
  const server = startListener("127.0.0.1", 0, ListenProtocol.TCP, testCertificate, front.hooks);
  cleanup.push(() => {
    server.stop();
    front.stop();
  });
  const relay = new TcpRelay(server.port);
  cleanup.push(() => relay.stop());
  const client = localTunnelClient(cleanup, relay.port, KEY, ListenProtocol.RMS2, {
    timing: TIMING,
    retryMs: 50,
  });

  let echoed = "";
  let closed = false;
  const miner: Socket<undefined> = await Bun.connect({
    hostname: "127.0.0.1",
    port: client.port,
    socket: {
      data: (_s, d) => {
        echoed += new TextDecoder().decode(d);
      },
      close: () => {
        closed = true;
      },
    },
  });
  cleanup.push(() => {
    miner.end();
  });
  miner.write("before\n");
  await until(() => echoed === "before\n");
  // idle for several keepalive periods: keepalives keep the link, nothing is dropped
  await Bun.sleep(TIMING.deadMs * 2.5);
  expect(relay.connections).toHaveLength(1);

  relay.blackhole();
  miner.write("into the black hole\n");
  await until(() => relay.connections.length === 2 && client.connected);
  miner.write("after\n");
  await until(() => echoed === "before\ninto the black hole\nafter\n");
  expect(closed).toBe(false);
  expect(client.links).toBe(2);
});
