/**
 * Tunnel and KENC versions (docs/rms-tunnel.md, "Versions"): clients of the first version and of
 * version 3 against an RMS3 port, written here by hand from the document (over the tests' WebCrypto
 * KENC client: version 1 with a tunnel hello of version 1, version 2 with one of version 3; no
 * `client` frame); what each gets is read off the wire with the tests' own decoder. This version's
 * client: rms-tunnel-compact.test.ts.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { concat, WebKencClient } from "../support/kenc/web-kenc.ts";
import { dataFrame, hello, openFrame, record } from "../support/tunnel/hand-frames.ts";
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

test("a client of version 3 gets a short line deflated, shorter than zstd's frame allows", async () => {
  const { pool, t, port, relay } = await rms3Port();
  const peer = await WebKencClient.connect(relay.port, KEY, SALT);
  cleanup.push(() => peer.end());
  peer.write(record(0, hello(3)));
  peer.write(record(0, concat(openFrame(), dataFrame(1, LOGIN))));
  const link = () => relay.connections[0] ?? { up: [], down: [] };
  const down = () => readDownRecords(KEY, link().up, link().down);
  const arrived = async (pattern: RegExp) => {
    for (let tries = 0; !(await down()).some((r) => r.frames.some((f) => pattern.test(f.payload))); tries++)
      if (tries === 200) throw new Error(`nothing like ${pattern} reached the version-3 client`);
      else await Bun.sleep(50);
  };
  await arrived(/mining\.notify/);
  // a few requests whose short answers each travel alone in a record
  for (let i = 0; i < 5; i++) {
    peer.write(
      record(0, dataFrame(1, `{"id":${10 + i},"method":"mining.extranonce.subscribe","params":[]}\n`)),
    );
    await arrived(new RegExp(`"id":${10 + i},`));
  }
  expect(peer.broken).toBeNull();
  expect(t.engine.running(port.id)?.online).toBe(1);
  const answers = (await down()).filter((r) => r.frames.some((f) => /"id":1[0-4],/.test(f.payload)));
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((r) => r.kind === 1)).toBe(true);
  expect(pool.rejects.size).toBe(0);
});
