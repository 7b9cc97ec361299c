/**
 * Tunnel and KENC versions (docs/rms-tunnel.md, "Versions"): a client of this version and one of the
 * first version, against the same RMS3 port. The first version's client is written here by hand from
 * the document (KENC version 1 over the tests' WebCrypto client, a tunnel hello of version 1 and no
 * `client` frame); what each gets is read off the wire with the tests' own decoder.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { concat, WebKencClient } from "../support/kenc/web-kenc.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { dataFrame, hello, openFrame, record } from "../support/tunnel/hand-frames.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { relayedRms3Port } from "../support/tunnel/relayed-port.ts";
import { readDownRecords, type WireRecord } from "../support/tunnel/tunnel-reader.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "tunnel versions 51c2";
const SALT = new TextEncoder().encode("pithead-rms-v1");
const LOGIN =
  '{"id":1,"method":"mining.subscribe","params":["v1/1.0"]}\n{"id":2,"method":"mining.authorize","params":["wal.v1","x"]}\n';

const payloads = (records: WireRecord[]) => records.flatMap((r) => r.frames.map((f) => f.payload)).join("");

const rms3Port = () => relayedRms3Port(cleanup, KEY);

test("a client of the first version (KENC 1, tunnel hello 1) is served in records it can read: plain or zstd, never deflate", async () => {
  const { t, port, relay } = await rms3Port();
  const peer = await WebKencClient.connect(relay.port, KEY, SALT, 1);
  cleanup.push(() => peer.end());
  peer.write(record(0, hello(1)));
  peer.write(record(0, concat(openFrame(), dataFrame(1, LOGIN))));
  const link = () => relay.connections[0] ?? { up: [], down: [] };
  let records: WireRecord[] = [];
  for (let tries = 0; !payloads(records).includes("mining.notify"); tries++) {
    if (tries === 200) throw new Error("no job reached the first version's client");
    await Bun.sleep(50);
    records = await readDownRecords(KEY, link().up, link().down);
  }
  expect(peer.broken).toBeNull();
  expect(t.engine.running(port.id)?.online).toBe(1);
  const text = payloads(records);
  expect(text).toContain('"id":1');
  expect(text).toContain('"id":2,"result":true');
  const kinds = new Set(records.map((r) => r.kind));
  expect(kinds.has(2)).toBe(true);
  expect(kinds.has(1)).toBe(false);
});

test("a client of this version gets a short line deflated, shorter than zstd's frame allows", async () => {
  const { pool, t, port, relay } = await rms3Port();
  const c = localTunnelClient(cleanup, relay.port, KEY, ListenProtocol.RMS3);
  const m = await RawClient.connect(c.port);
  cleanup.push(() => m.close());
  m.request(1, "mining.subscribe", ["v2/1.0"]);
  m.request(2, "mining.authorize", ["wal.v2", "x"]);
  await until(() => t.engine.running(port.id)?.online === 1);
  await until(() => m.lines.some((l) => l.includes("mining.notify")));
  // a few requests whose short answers each travel alone in a record
  for (let i = 0; i < 5; i++) {
    m.request(10 + i, "mining.extranonce.subscribe", []);
    await until(() => m.lines.some((l) => l.includes(`"id":${10 + i}`)));
  }
  const link = relay.connections[0];
  if (link === undefined) throw new Error("no tunnel link");
  const records = await readDownRecords(KEY, link.up, link.down);
  const answers = records.filter((r) => r.frames.some((f) => /"id":1[0-4],/.test(f.payload)));
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((r) => r.kind === 1)).toBe(true);
  expect(pool.rejects.size).toBe(0);
});
