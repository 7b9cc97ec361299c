/**
 * RMS3's compact lines (docs/rms-tunnel.md, "Compact lines"): between ends of tunnel version 4, a
 * miner's shares and their answers cross as their templates' changed fields. Hashing miners behind
 * this version's client mine through them, the pool verifying every share; the wire is read with the
 * tests' own reader, which rebuilds each line from the document. A client of version 3 gets data
 * frames only, and a tunnel begun at one version cannot be resumed at another.
 */

import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { downRecordsUntil, handTunnelClient } from "../support/tunnel/hand-client.ts";
import { localTunnelClient } from "../support/tunnel/local-client.ts";
import { relayedRms3Port } from "../support/tunnel/relayed-port.ts";
import { readDownRecords, readRecords, type WireRecord } from "../support/tunnel/tunnel-reader.ts";

setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "compact lines 3e61";
const LINE = 0x06;
const FIELDS = 0x07;

const frames = (records: WireRecord[]) => records.flatMap((r) => r.frames);

test("a miner's shares and their answers cross as fields: the pool accepts every share, and each share's record is a fraction of its line", async () => {
  const { pool, relay } = await relayedRms3Port(cleanup, KEY);
  const c = localTunnelClient(cleanup, relay.port, KEY, ListenProtocol.RMS3);
  const users = ["wal.c1", "wal.c2"];
  // Paced as real devices are, so that shares come apart: an unpaced miner on a loaded box finds
  // them in bursts that share a record, and then fewer records carry shares alone.
  const miners = users.map((user) =>
    TestMiner.start({ port: c.port, user, maxMs: 60_000, hashesPerSecond: 4_000 }),
  );
  await until(() => users.every((u) => (pool.workers.get(u)?.shares ?? 0) >= 15));
  const reports = await Promise.all(miners.map((m) => m.finish()));
  const link = relay.connections[0];
  if (link === undefined) throw new Error("no tunnel link");
  const up = await readRecords(KEY, link.up, link.down, "up");
  const down = await readDownRecords(KEY, link.up, link.down);

  // every share the miners sent is read back whole from the wire, most of them from fields alone
  const submits = frames(up).filter((f) => f.payload.includes('"mining.submit"'));
  const submitted = reports.reduce((n, r) => n + r.submitted, 0);
  expect(submits).toHaveLength(submitted);
  for (const f of submits) expect(JSON.parse(f.payload).method).toBe("mining.submit");
  expect(submits.filter((f) => f.type === FIELDS).length).toBeGreaterThanOrEqual(submitted - users.length);
  // the records that carry only shares as fields, header included, against the shares' lines
  const shareRecords = up.filter((r) =>
    r.frames.every((f) => f.type === FIELDS && f.payload.includes('"mining.submit"')),
  );
  expect(shareRecords.length).toBeGreaterThan(5);
  const lines = shareRecords.flatMap((r) => r.frames).reduce((n, f) => n + f.payload.length, 0);
  expect(shareRecords.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(lines / 3);

  const accepted = frames(down).filter((f) => /"result":true/.test(f.payload));
  expect(accepted.filter((f) => f.type === FIELDS).length).toBeGreaterThan(20);
  for (const r of reports) {
    expect(r.accepted).toBeGreaterThanOrEqual(15);
    expect(r.rejected.size).toBe(0);
    expect(r.disconnects).toBe(0);
  }
  expect(pool.rejects.size).toBe(0);
});

test("a client of version 3 gets data frames only, and its tunnel cannot be resumed at version 4", async () => {
  const { t, port, relay } = await relayedRms3Port(cleanup, KEY);
  const peer = await handTunnelClient(cleanup, relay.port, KEY, { version: 3 });
  // the subscribe's and authorize's answers, the difficulty and two jobs
  const records = await downRecordsUntil(
    relay,
    KEY,
    (r) => frames(r).filter((f) => f.payload.includes("mining.notify")).length >= 2,
    "a second job reaching the version-3 client",
    400,
  );
  expect(peer.broken).toBeNull();
  expect(t.engine.running(port.id)?.online).toBe(1);
  // this version's client would get these lines in `line` and `fields` frames
  expect(frames(records).filter((f) => f.type === LINE || f.type === FIELDS)).toEqual([]);

  const id = frames(records).find((f) => f.type === 0x21)?.tunnel;
  if (id === undefined) throw new Error("no welcome");
  const resume = await handTunnelClient(cleanup, relay.port, KEY, {
    version: 4,
    tunnel: new Uint8Array(Buffer.from(id, "hex")),
  });
  await until(() => resume.closed);
  await until(() => t.logs.some((l) => l.includes("a tunnel begun at version 3 resumed at version 4")));
});
