/**
 * Hostile tunnel peers that hold the key (docs/rms-tunnel.md, "Refusals"): a frame for a stream
 * never opened, a decompression bomb, an oversized record, a first frame that is not a hello, a
 * stream that overruns its window, a broadcast from a client, a compact line with no template. Each
 * closes that peer's tunnel with a line in the port log, and nothing else: a hashing miner on
 * another tunnel of the same port keeps having its shares accepted. The frames are written here by
 * hand from the document, over the test's own WebCrypto KENC client.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { zstdCompressSync } from "node:zlib";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { startKencPort } from "../support/kenc/kenc-port.ts";
import { WebKencClient } from "../support/kenc/web-kenc.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import {
  dataFrame,
  fieldsFrame,
  hello as helloOf,
  openFrame,
  record,
} from "../support/tunnel/hand-frames.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "hostile peers 0b9a";
const SALT = new TextEncoder().encode("pithead-rms-v1");
/** these peers speak the first tunnel version, which a port still serves */
const hello = () => helloOf(1);

/** the same bytes to streams 1 and 2, which only a server may send */
function broadcastFrame(): Uint8Array {
  const f = new Uint8Array(3 + 8 + 4 + 3);
  const v = new DataView(f.buffer);
  f[0] = 0x05;
  v.setUint16(1, 2);
  v.setUint32(3, 1);
  v.setUint32(7, 2);
  v.setUint32(11, 3);
  f.set(new TextEncoder().encode("{}\n"), 15);
  return f;
}

test("hostile frames close the hostile tunnel, and nothing else", async () => {
  const { pool, t, port, listen } = await startKencPort(cleanup, KEY, [], { protocol: ListenProtocol.RMS3 });
  const client = localTunnelClient(cleanup, listen, KEY, ListenProtocol.RMS3);
  const miner = TestMiner.start({ port: client.port, user: "wal.ok", maxMs: 80_000 });
  cleanup.push(() => miner.stop());
  await until(() => (pool.workers.get("wal.ok")?.shares ?? 0) >= 5);

  const attacks: Array<[string, Uint8Array[]]> = [
    ["unknown stream 7", [record(0, hello()), record(0, dataFrame(7, "{}\n"))]],
    [
      "record does not decompress within 1 MiB",
      [record(0, hello()), record(2, new Uint8Array(zstdCompressSync(new Uint8Array(4 * 1024 * 1024))))],
    ],
    ["record too long", [record(0, hello()), record(0, new Uint8Array(0), 0x7fffffff)]],
    ["the first frame is not a hello", [record(0, dataFrame(1, "{}\n"))]],
    // the port announced a 64 KiB window per stream: 65,537 bytes before any credit overrun it
    [
      "stream 1 overran its window",
      [record(0, hello()), record(0, openFrame()), record(0, dataFrame(1, "x".repeat(65537)))],
    ],
    ["broadcast from a client", [record(0, hello()), record(0, openFrame()), record(0, broadcastFrame())]],
    // a version-4 peer's compact line for a template it never sent
    [
      "fields for empty template 2",
      [record(0, helloOf(4)), record(0, openFrame()), record(0, fieldsFrame(1, 2, Uint8Array.of(2)))],
    ],
  ];
  for (const [reason, records] of attacks) {
    const peer = await WebKencClient.connect(listen, KEY, SALT);
    for (const r of records) peer.write(r);
    await until(() => peer.closed);
    await until(() => t.logs.some((l) => l.includes(reason)));
    const before = pool.workers.get("wal.ok")?.shares ?? 0;
    await until(() => (pool.workers.get("wal.ok")?.shares ?? 0) >= before + 5);
  }
  // the hostile tunnels' streams are gone; the good one's miner never left
  expect(t.engine.running(port.id)?.connected).toBe(1);
  expect(client.links).toBe(1);
  const report = await miner.finish();
  expect(report.disconnects).toBe(0);
  expect(report.rejected.size).toBe(0);
});
