/**
 * KENC (spec §4: SSL with et_mode 1; docs/kenc.md) end to end: a hashing test miner's stratum is
 * carried to the port by a KENC client written with WebCrypto from the document (not the engine's
 * node:crypto code), the pool verifies every share and the fee still reaches the fee pool. Wrong
 * key, replayed, reordered and truncated frames close the connection, logged once per address.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Port } from "../../appliance/domain/port.ts";
import { startKencPort } from "../support/kenc/kenc-port.ts";
import { throughKenc, WebKencClient } from "../support/kenc/web-kenc.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { PACED_HASHES_PER_SECOND, TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "farm link key 7f3a";
const SUBSCRIBE = '{"id":1,"method":"mining.subscribe","params":["kenc-test/1.0"]}\n';

const kencPort = (wallets: Port["wallets"] = [], key = KEY) => startKencPort(cleanup, key, wallets);

const kencLog = (logs: string[], portId: number) =>
  logs.filter((l) => l.startsWith(`warn ${portId} KENC 127.0.0.1:`));

describe("KENC listener", () => {
  test("a hashing miner behind a WebCrypto KENC client mines through the port, fee included", async () => {
    const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => fee.stop());
    const { pool, t, port, listen } = await kencPort([feeWallet(1, "feew", fee.address, 0.3)]);
    const relay = throughKenc(listen, KEY);
    cleanup.push(relay.stop);
    const r = await TestMiner.start({
      port: relay.port,
      user: "wal.rig1",
      maxShares: 60,
      maxMs: 40_000,
      hashesPerSecond: PACED_HASHES_PER_SECOND,
    }).done;
    expect(r.accepted).toBe(60);
    expect(pool.workers.get("wal.rig1")?.shares ?? 0).toBeGreaterThan(0);
    expect(fee.workers.get("feew.fee")?.shares ?? 0).toBeGreaterThan(0);
    expect(pool.rejects.size + fee.rejects.size).toBe(0);
    expect(t.engine.live.workers(port.id)[0]?.valid).toBeGreaterThan(0);
    expect(kencLog(t.logs, port.id)).toEqual([]);
  });

  for (const version of [2, 1])
    test(`the port answers in sealed frames the WebCrypto client opens, in the client's KENC version (${version})`, async () => {
      const { listen } = await kencPort();
      const c = await WebKencClient.connect(listen, KEY, undefined, version);
      cleanup.push(() => c.end());
      c.write(new TextEncoder().encode(SUBSCRIBE));
      await until(() => c.received.includes("\n") || c.closed);
      expect(c.broken).toBeNull();
      expect(JSON.parse(c.received.split("\n")[0] ?? "")).toMatchObject({ id: 1, error: null });
    });

  test("a wrong key closes the connection before the port sees a miner, logged once per address", async () => {
    const { t, port, listen } = await kencPort();
    for (let i = 0; i < 3; i++) {
      const c = await WebKencClient.connect(listen, "not the key");
      c.write(new TextEncoder().encode(SUBSCRIBE));
      await until(() => c.closed);
      expect(c.received).toBe("");
    }
    const lines = kencLog(t.logs, port.id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("the first frame does not authenticate");
    expect(t.engine.running(port.id)?.connected).toBe(0);
  });

  /** the first two frames of a miner's session, sealed but not sent */
  const twoFrames = async (c: WebKencClient) =>
    [
      await c.frame(SUBSCRIBE),
      await c.frame('{"id":2,"method":"mining.authorize","params":["wal.x","x"]}\n'),
    ] as const;
  /** what each attack does, and the reason the port logs for it by KENC version (2, then 1) */
  const hostile: [string, (c: WebKencClient) => Promise<void>, [string, string]][] = [
    [
      "a replayed frame",
      async (c) => {
        const f = await c.frame(SUBSCRIBE);
        c.send(f);
        await until(() => c.received.includes("\n"));
        c.send(f);
      },
      [
        "frame does not authenticate (altered, cut, replayed or out of order)",
        "frame replayed or out of order",
      ],
    ],
    [
      "reordered frames",
      async (c) => {
        const [first, second] = await twoFrames(c);
        c.send(second);
        c.send(first);
      },
      ["the first frame does not authenticate", "first frame out of order"],
    ],
    [
      "a truncated frame followed by the next",
      async (c) => {
        const [first, second] = await twoFrames(c);
        c.send(first.subarray(0, first.length - 5));
        c.send(second);
      },
      ["the first frame does not authenticate", "the first frame does not authenticate"],
    ],
  ];
  for (const version of [2, 1])
    for (const [name, act, reasons] of hostile)
      test(`${name} closes the connection (KENC version ${version})`, async () => {
        const { t, port, listen } = await kencPort();
        const c = await WebKencClient.connect(listen, KEY, undefined, version);
        await act(c);
        await until(() => c.closed);
        const lines = kencLog(t.logs, port.id);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(reasons[version === 2 ? 0 : 1]);
        await until(() => t.engine.running(port.id)?.connected === 0);
      });

  test("a connection that ends inside a frame is logged as truncated", async () => {
    const { t, port, listen } = await kencPort();
    const c = await WebKencClient.connect(listen, KEY);
    const f = await c.frame(SUBSCRIBE);
    c.send(f.subarray(0, 20));
    c.end();
    await until(() => kencLog(t.logs, port.id).length > 0);
    expect(kencLog(t.logs, port.id)[0]).toContain("truncated frame");
  });

  test("a plain stratum miner, or any client without the hello, is closed unanswered", async () => {
    const { t, port, listen } = await kencPort();
    let got = 0;
    let closed = false;
    const s = await Bun.connect({
      hostname: "127.0.0.1",
      port: listen,
      socket: {
        data: (_s, d) => {
          got += d.length;
        },
        close: () => {
          closed = true;
        },
      },
    });
    s.write(SUBSCRIBE);
    await until(() => closed);
    expect(got).toBe(0);
    expect(kencLog(t.logs, port.id)[0]).toContain("not a KENC hello");
  });

  test("a hello of a KENC version the port does not speak is closed unanswered", async () => {
    const { t, port, listen } = await kencPort();
    await expect(WebKencClient.connect(listen, KEY, undefined, 3)).rejects.toThrow("closed before its hello");
    expect(kencLog(t.logs, port.id)[0]).toContain("KENC version 3, not one this end speaks");
  });

  test("with no KENC key set every connection is refused; a key set later applies to the next one", async () => {
    const { t, port, listen, setKey } = await kencPort([], "");
    await expect(WebKencClient.connect(listen, "")).rejects.toThrow("closed before its hello");
    expect(kencLog(t.logs, port.id)[0]).toContain("no KENC key is set");
    setKey(KEY);
    const c = await WebKencClient.connect(listen, KEY);
    cleanup.push(() => c.end());
    c.write(new TextEncoder().encode(SUBSCRIBE));
    await until(() => c.received.includes("\n"));
    expect(c.broken).toBeNull();
  });
});
