/**
 * The batch window of the RMS settings (docs/rms-tunnel.md, "Batch window"): lines of several miners
 * that the window spans cross the tunnel in one record each way, where without it each crosses in a
 * record of its own. What crossed is read off the wire with the tests' own decoder.
 */

import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { downRecordsUntil, handTunnelClient } from "../support/tunnel/hand-client.ts";
import { dataFrame, record } from "../support/tunnel/hand-frames.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { relayedRms3Port } from "../support/tunnel/relayed-port.ts";
import { readRecords, type WireRecord } from "../support/tunnel/tunnel-reader.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "tunnel batch 7d0e";
const MINERS = 4;
/** the requests of the test, one per miner, far apart for one event-loop turn, well within a 1-s window */
const SPACING_MS = 20;
const requestId = (i: number) => 10 + i;

const rms3Port = (batchMs: number) => relayedRms3Port(cleanup, KEY, batchMs);

/** The records of one way of the link that carry a line with one of the test's request ids. */
const carrying = (records: WireRecord[], pattern: (id: number) => RegExp) =>
  records.filter((r) =>
    r.frames.some((f) =>
      Array.from({ length: MINERS }, (_, i) => pattern(requestId(i))).some((p) => p.test(f.payload)),
    ),
  );
const requests = (id: number) => new RegExp(`"id":${id},"method"`);
const answers = (id: number) => new RegExp(`"id":${id},"result"`);

/** Miners behind this version's client, logged in, then each sends one request SPACING_MS after the last. */
async function farm(batchMs: number) {
  const { t, port, relay } = await rms3Port(batchMs);
  const logs: string[] = [];
  const c = localTunnelClient(cleanup, relay.port, KEY, ListenProtocol.RMS3, { log: (m) => logs.push(m) });
  const miners: RawClient[] = [];
  for (let i = 0; i < MINERS; i++) {
    const m = await RawClient.connect(c.port);
    cleanup.push(() => m.close());
    m.request(1, "mining.subscribe", [`batch/${i}`]);
    m.request(2, "mining.authorize", [`wal.batch${i}`, "x"]);
    miners.push(m);
  }
  await until(() => t.engine.running(port.id)?.online === MINERS);
  await until(() => miners.every((m) => m.lines.some((l) => l.includes("mining.notify"))));
  for (const [i, m] of miners.entries()) {
    if (i > 0) await Bun.sleep(SPACING_MS);
    m.request(requestId(i), "mining.extranonce.subscribe", []);
  }
  await until(() => miners.every((m, i) => m.answer(requestId(i)) !== undefined));
  const link = relay.connections[0];
  if (link === undefined) throw new Error("no tunnel link");
  return {
    up: await readRecords(KEY, link.up, link.down, "up"),
    down: await readRecords(KEY, link.up, link.down, "down"),
    logs,
    server: `127.0.0.1:${relay.port}`,
  };
}

test("with a batch window, the lines of several miners cross in one record each way, and the client is told the window", async () => {
  const { up, down, logs, server } = await farm(1000);
  // the requests wait for each other at the client; their answers, made together, cross together
  expect(carrying(up, requests).length).toBeLessThanOrEqual(2);
  expect(carrying(up, requests).some((r) => r.frames.length >= 2)).toBe(true);
  expect(carrying(down, answers).length).toBeLessThanOrEqual(2);
  const welcome = down[0]?.frames.map((f) => f.type);
  expect(welcome).toEqual([0x21, 0x25, 0x23]);
  expect(down[0]?.frames[1]?.batchMs).toBe(1000);
  expect(logs.filter((l) => l.includes("batch window"))).toEqual([
    `RMS3 ${server}: the server's batch window is 1000 ms: shares and their answers wait up to that long each way, to cross the tunnel together`,
  ]);
});

test("without a batch window, each miner's line crosses in a record of its own", async () => {
  const { up, down } = await farm(0);
  expect(carrying(up, requests).length).toBe(MINERS);
  expect(carrying(down, answers).length).toBe(MINERS);
  expect(down[0]?.frames[1]?.batchMs).toBe(0);
});

test("a client of version 2 gets no batch frame, and the port's own records still wait for the window", async () => {
  const { t, port, relay } = await rms3Port(1000);
  const peer = await handTunnelClient(cleanup, relay.port, KEY, { version: 2, kenc: 2 });
  await until(() => t.engine.running(port.id)?.online === 1);
  // each request alone in its record, as a client without the window sends them
  for (let i = 0; i < MINERS; i++) {
    if (i > 0) await Bun.sleep(SPACING_MS);
    peer.write(
      record(0, dataFrame(1, `{"id":${requestId(i)},"method":"mining.extranonce.subscribe","params":[]}\n`)),
    );
  }
  const answered = (down: WireRecord[]) =>
    Array.from({ length: MINERS }, (_, i) => answers(requestId(i))).every((p) =>
      down.some((r) => r.frames.some((f) => p.test(f.payload))),
    );
  const down = await downRecordsUntil(relay, KEY, answered, "the answers reaching the version-2 client", 100);
  expect(peer.broken).toBeNull();
  expect(down.flatMap((r) => r.frames).some((f) => f.type === 0x25)).toBe(false);
  expect(carrying(down, answers).length).toBeLessThanOrEqual(2);
});
