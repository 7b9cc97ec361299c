/**
 * Tunnel and KENC versions (docs/rms-tunnel.md, "Versions"): clients of the first version and of
 * version 3 against an RMS3 port, written here by hand from the document (over the tests' WebCrypto
 * KENC client: version 1 with a tunnel hello of version 1, version 2 with one of version 3; no
 * `client` frame); what each gets is read off the wire with the tests' own decoder. This version's
 * client: rms-tunnel-compact.test.ts.
 */

import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { downRecordsUntil, handTunnelClient } from "../support/tunnel/hand-client.ts";
import { dataFrame, record } from "../support/tunnel/hand-frames.ts";
import { relayedRms3Port } from "../support/tunnel/relayed-port.ts";
import type { WireRecord } from "../support/tunnel/tunnel-reader.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "tunnel versions 51c2";

const payloads = (records: WireRecord[]) => records.flatMap((r) => r.frames.map((f) => f.payload)).join("");

const rms3Port = () => relayedRms3Port(cleanup, KEY);

test("a client of the first version (KENC 1, tunnel hello 1) is served in records it can read: plain or zstd, never deflate", async () => {
  const { t, port, relay } = await rms3Port();
  const peer = await handTunnelClient(cleanup, relay.port, KEY, { version: 1, kenc: 1 });
  const records = await downRecordsUntil(
    relay,
    KEY,
    (r) => payloads(r).includes("mining.notify"),
    "a job reaching the first version's client",
  );
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
  const peer = await handTunnelClient(cleanup, relay.port, KEY, { version: 3 });
  const arrived = (pattern: RegExp) =>
    downRecordsUntil(
      relay,
      KEY,
      (r) => r.some((x) => x.frames.some((f) => pattern.test(f.payload))),
      `${pattern} reaching the version-3 client`,
    );
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
  const answers = (await arrived(/"id":14,/)).filter((r) =>
    r.frames.some((f) => /"id":1[0-4],/.test(f.payload)),
  );
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((r) => r.kind === 1)).toBe(true);
  expect(pool.rejects.size).toBe(0);
});
