/**
 * Kaspa edges end to end: failover to the standby pool, a fee pool that drops, a miner that did not
 * send mining.extranonce.subscribe (Compatible-style fee), a pool whose prefix is too long to share,
 * Karlsen and Pyrin ports (protocol only), and hostile input.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { engine, feeWallet, kasPort, miner, pool } from "../support/kaspa/e2e-fixture.ts";
import { type HeavyHashAlgorithm, PYRIN } from "../support/kaspa/kheavyhash.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(60_000);

describe("failover", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${mode === ProxyMode.POOL ? "Pool" : "Efficient"}: the main pool goes down; miners keep their sockets, take the standby's prefix and mine there`, async () => {
      const a = pool();
      const b = pool();
      const t = engine();
      const port = kasPort({
        pool_address: a.address,
        pool_address2: b.address,
        mode,
        proxy_addr: "kaspa:unified",
        proxy_device: "farm",
      });
      const listen = await t.start(port);
      const m1 = miner(listen, { user: "kaspa:wal.m1", form: "u64", maxShares: 1_000 });
      const m2 = miner(listen, { user: "kaspa:wal.m2", form: "hex", maxShares: 1_000 });
      await until(() => a.accepted >= 4);
      a.stop();
      await until(() => b.accepted >= 4);
      m1.stop();
      m2.stop();
      const [r1, r2] = await Promise.all([m1.done, m2.done]);
      expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
      expect([r1.closedByProxy, r2.closedByProxy]).toEqual([false, false]);
      // the standby session's prefix reached each miner by mining.set_extranonce
      expect(r1.setExtranonce).toBeGreaterThan(1);
      expect(r2.setExtranonce).toBeGreaterThan(1);
      expect(b.rejects.size).toBe(0);
    });
});

describe("fee edges", () => {
  test("a fee pool that goes down sends its miners back to the main pool at once", async () => {
    const a = pool();
    const b = pool();
    const t = engine();
    // 90 %: the scheduler keeps the miners on the fee pool, so only its going down brings them back
    const port = kasPort({ pool_address: a.address, wallets: [feeWallet(1, "kaspa:fee", b.address, 0.9)] });
    const listen = await t.start(port);
    const m1 = miner(listen, { user: "kaspa:wal.m1", maxShares: 1_000 });
    const m2 = miner(listen, { user: "kaspa:wal.m2", form: "hex", maxShares: 1_000 });
    const devices = () => t.engine.registry.devices(port.id);
    await until(() => devices().length === 2 && devices().every((d) => d.mining !== "main"));
    b.stop();
    await until(() => devices().every((d) => d.mining === "main"));
    const atStop = [a.workers.get("kaspa:wal.m1")?.shares ?? 0, a.workers.get("kaspa:wal.m2")?.shares ?? 0];
    await until(
      () =>
        (a.workers.get("kaspa:wal.m1")?.shares ?? 0) >= (atStop[0] as number) + 3 &&
        (a.workers.get("kaspa:wal.m2")?.shares ?? 0) >= (atStop[1] as number) + 3,
    );
    m1.stop();
    m2.stop();
    const [r1, r2] = await Promise.all([m1.done, m2.done]);
    expect([r1.closedByProxy, r2.closedByProxy]).toEqual([false, false]);
    expect(a.rejects.size).toBe(0);
  });

  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${mode === ProxyMode.POOL ? "Pool" : "Efficient"}: a miner without mining.extranonce.subscribe keeps its one prefix and pays its fee on its main session under the fee worker (Compatible-style), logged`, async () => {
      const a = pool();
      const b = pool();
      const t = engine();
      const port = kasPort({
        pool_address: a.address,
        mode,
        proxy_addr: "kaspa:unified",
        proxy_device: "farm",
        wallets: [feeWallet(1, "kaspa:feeaddr", b.address, 0.3)],
      });
      const listen = await t.start(port);
      const r = await miner(listen, { user: "kaspa:wal.old", extranonceSubscribe: false, maxShares: 30 })
        .done;
      expect(r.rejected).toEqual(new Map());
      expect(r.accepted).toBe(30);
      // its first prefix only: the one every Kaspa miner is given after authorize
      expect(r.setExtranonce).toBe(1);
      expect(
        t.logs.some((l) => l.includes("no mining.extranonce.subscribe") && l.includes("Compatible fee")),
      ).toBe(true);
      expect(b.connectionsOpened).toBe(0);
      const fee = a.workers.get("kaspa:feeaddr.fee")?.shares ?? 0;
      const own =
        a.workers.get(mode === ProxyMode.POOL ? "kaspa:unified.farm" : "kaspa:wal.old")?.shares ?? 0;
      expect(fee + own).toBe(30);
      expect(fee / 30).toBeGreaterThan(0.1);
      expect(fee / 30).toBeLessThan(0.5);
    });
});

describe("pools and coins", () => {
  test("Pool mode refuses to share a pool session whose prefix is two bytes (a miner's would be three), logged", async () => {
    const a = pool({ extranonceBytes: 2 });
    const t = engine();
    const listen = await t.start(
      kasPort({ pool_address: a.address, mode: ProxyMode.POOL, proxy_addr: "kaspa:u", proxy_device: "p" }),
    );
    const m = miner(listen, { user: "kaspa:wal.m1", maxShares: 1 });
    await until(() => t.logs.some((l) => l.includes("too long to share the session")));
    m.stop();
    expect((await m.done).accepted).toBe(0);
    expect(a.accepted).toBe(0);
  });

  test("Efficient mode passes a pool's two-byte prefix to its one miner", async () => {
    const a = pool({ extranonceBytes: 2 });
    const t = engine();
    const listen = await t.start(kasPort({ pool_address: a.address }));
    const r = await miner(listen, { user: "kaspa:wal.m1", maxShares: 3 }).done;
    expect(r.accepted).toBe(3);
    expect(a.rejects.size).toBe(0);
  });

  test("a pool that gives no extranonce (the bridge's default): the miner mines the whole nonce on main and its slot byte on the fee session", async () => {
    const a = pool({ extranonceBytes: 0 });
    const b = pool({ extranonceBytes: 0 });
    const t = engine();
    const port = kasPort({ pool_address: a.address, wallets: [feeWallet(1, "kaspa:fee", b.address, 0.25)] });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "kaspa:wal.m1", maxShares: 30 }).done;
    expect(r.rejected).toEqual(new Map());
    expect(r.accepted).toBe(30);
    expect(a.accepted + b.accepted).toBe(30);
    expect(b.accepted).toBeGreaterThan(0);
    // to the fee session and back: its slot byte, then the main session's empty prefix
    expect(r.setExtranonce).toBeGreaterThan(1);
  });

  const feeOnPort = async (currency: string, category: string, algorithm?: HeavyHashAlgorithm) => {
    const a = pool({ algorithm });
    const b = pool({ algorithm });
    const t = engine();
    const port = kasPort({
      currency,
      category,
      pool_address: a.address,
      wallets: [feeWallet(1, "fee", b.address, 0.25)],
    });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "wal.rig", maxShares: 20, algorithm }).done;
    expect(r.rejected).toEqual(new Map());
    expect(r.accepted).toBe(20);
    expect(a.accepted + b.accepted).toBe(20);
    expect(b.accepted).toBeGreaterThan(0);
    // no published hash factor: work is counted in difficulty units, which the fee ratio does not need
    const view = t.engine.running(port.id)?.feeView();
    expect(view?.achieved).toBeCloseTo(b.totalWork() / (a.totalWork() + b.totalWork()), 6);
  };

  test("KLS (karlsenhash) ports speak the same protocol: covered by the protocol only (the test pool hashes kHeavyHash, not karlsenhash, whose FishHash dataset is too costly for a test)", () =>
    feeOnPort("KLS", "karlsenhash"));

  test("PYI (blake3s) ports: every share verified at the pools with Pyrin's heavy hash (BLAKE3), fee included", () =>
    feeOnPort("PYI", "blake3s", PYRIN));

  test("a Pyrin pool refuses shares hashed with Kaspa's heavy hash: the pools really tell the two apart", async () => {
    const a = pool({ algorithm: PYRIN });
    const t = engine();
    const listen = await t.start(kasPort({ currency: "PYI", category: "blake3s", pool_address: a.address }));
    const r = await miner(listen, { user: "wal.rig", maxShares: 20 }).done;
    // a Kaspa-hashed share meets the Pyrin target by chance once in 256 (the pool's 2^-24 difficulty)
    expect(a.rejects.get("low-difficulty") ?? 0).toBeGreaterThan(10);
    expect(r.accepted).toBeLessThan(10);
  });
});

describe("hostile input", () => {
  const code = (c: RawClient, id: number): unknown => (c.answer(id)?.error as unknown[] | undefined)?.[0];

  test("malformed JSON, unknown method, submit before authorize, bad nonce hex, a nonce outside the prefix: errors; strikes and an oversize line close the socket", async () => {
    const a = pool();
    const t = engine();
    const port = kasPort({ pool_address: a.address });
    const listen = await t.start(port);
    const c = await RawClient.connect(listen);
    c.request(1, "mining.submit", ["kaspa:wal.raw", "1", "00"]);
    c.send("this is not json\n");
    c.request(3, "mining.teleport", []);
    c.request(4, "mining.subscribe", ["raw/1.0", "EthereumStratum/1.0.0"]);
    c.request(5, "mining.submit", ["kaspa:wal.raw", "1", "00"]);
    c.request(6, "mining.authorize", ["kaspa:wal.raw", "x"]);
    await until(() => c.answer(6) !== undefined && c.lines.some((l) => l.includes("mining.notify")));
    expect(code(c, 1)).toBe(24);
    expect(code(c, 3)).toBe(20);
    expect(code(c, 5)).toBe(24);
    expect(c.lines.some((l) => l.includes('"malformed JSON"'))).toBe(true);
    expect(t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);
    expect(c.answer(4)?.result).toEqual([true, "EthereumStratum/1.0.0"]);
    expect(c.answer(6)?.result).toBe(true);

    const prefixLine = c.lines.find((l) => l.includes("mining.set_extranonce")) as string;
    const prefix = (JSON.parse(prefixLine) as { params: string[] }).params[0] as string;
    expect(prefix).toHaveLength(a.extranonceBytes * 2);
    const notify = JSON.parse([...c.lines].reverse().find((l) => l.includes("mining.notify")) as string) as {
      params: [string];
    };
    const jobId = notify.params[0];
    const other = ((Number.parseInt(prefix, 16) + 1) % 256).toString(16).padStart(2, "0");
    c.request(7, "mining.submit", ["kaspa:wal.raw", jobId, "0xzz"]);
    c.request(8, "mining.submit", ["kaspa:wal.raw", jobId, `${other}${"0".repeat(14)}`]);
    c.request(9, "mining.submit", ["kaspa:wal.raw", jobId, "1".repeat(17)]);
    c.request(10, "mining.submit", ["kaspa:wal.raw", "nope", `${prefix}${"0".repeat(14)}`]);
    await until(() => c.answer(10) !== undefined);
    expect((c.answer(7)?.error as unknown[] | undefined)?.[1]).toContain("nonce");
    expect((c.answer(8)?.error as unknown[] | undefined)?.[1]).toContain("outside the extranonce");
    expect((c.answer(9)?.error as unknown[] | undefined)?.[1]).toContain("nonce");
    expect(code(c, 10)).toBe(21);
    // none of them reached the pool
    expect(a.rejects.size).toBe(0);
    const device = t.engine.registry.devices(port.id).find((d) => d.name === "raw");
    expect(device?.invalid).toBe(1);
    expect(c.closed).toBe(false);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);

    const big = await RawClient.connect(listen);
    big.send(`{"id":1,"method":"mining.subscribe","params":["${"x".repeat(20_000)}"]}\n`);
    await until(() => big.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);
  });
});

describe("the slot byte in Pool mode", () => {
  test("a share whose nonce carries the pool's prefix but another miner's slot byte is refused by the proxy, never sent up", async () => {
    const a = pool();
    const t = engine();
    const port = kasPort({
      pool_address: a.address,
      mode: ProxyMode.POOL,
      proxy_addr: "kaspa:u",
      proxy_device: "p",
    });
    const listen = await t.start(port);
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", ["raw/1.0"]);
    c.request(2, "mining.extranonce.subscribe", []);
    c.request(3, "mining.authorize", ["kaspa:wal.raw", "x"]);
    await until(() => c.lines.some((l) => l.includes("mining.notify")));
    const prefixLine = c.lines.find((l) => l.includes("mining.set_extranonce")) as string;
    const prefix = (JSON.parse(prefixLine) as { params: string[] }).params[0] as string;
    // the pool's one byte and the miner's slot byte
    expect(prefix).toHaveLength(4);
    const notify = JSON.parse(c.lines.find((l) => l.includes("mining.notify")) as string) as {
      params: [string];
    };
    const otherSlot = ((Number.parseInt(prefix.slice(2), 16) + 1) % 256).toString(16).padStart(2, "0");
    c.request(4, "mining.submit", [
      "kaspa:wal.raw",
      notify.params[0],
      `${prefix.slice(0, 2)}${otherSlot}${"0".repeat(12)}`,
    ]);
    await until(() => c.answer(4) !== undefined);
    expect((c.answer(4)?.error as unknown[] | undefined)?.[1]).toContain("outside the extranonce");
    expect(a.rejects.size + a.accepted).toBe(0);
    c.close();
  });
});

describe("Bitmain firmware", () => {
  test("GodMiner gets its prefix in the subscribe answer [null, prefix, 8 − length] and set_extranonce with the size", async () => {
    const a = pool();
    const t = engine();
    const port = kasPort({
      pool_address: a.address,
      mode: ProxyMode.POOL,
      proxy_addr: "kaspa:u",
      proxy_device: "p",
    });
    const listen = await t.start(port);
    // a first miner opens the shared session, so its prefix is known when GodMiner subscribes
    const first = miner(listen, { user: "kaspa:wal.m1", maxShares: 1 });
    await first.done;
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", ["GodMiner/2.0", "EthereumStratum/1.0.0"]);
    c.request(2, "mining.authorize", ["kaspa:wal.ks5", "x"]);
    await until(() => c.lines.some((l) => l.includes("mining.notify")));
    const answer = c.answer(1)?.result as [null, string, number];
    expect(answer[0]).toBeNull();
    expect(answer[1]).toHaveLength(4);
    expect(answer[2]).toBe(6);
    const set = JSON.parse(c.lines.find((l) => l.includes("mining.set_extranonce")) as string) as {
      params: [string, number];
    };
    expect(set.params).toEqual([answer[1], 6]);
    // Bitmain reads the u64 array form
    expect(c.lines.find((l) => l.includes("mining.notify"))).toMatch(
      /"params":\["[0-9a-f]+",\[\d+,\d+,\d+,\d+\],\d+\]/,
    );
    c.close();
  });
});
