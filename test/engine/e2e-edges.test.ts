import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ConnectMode, ListenProtocol, ProxyMode } from "../../appliance/domain/port.ts";
import type { BitcoinRuntime } from "../../appliance/engine/stratum/bitcoin/runtime.ts";
import { freePort } from "../support/free-port.ts";
import {
  makeEngine,
  makePort,
  type TestEngine,
  testCertificate,
  until,
} from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool, type TestPoolOptions } from "../support/stratum/test-pool.ts";

// End-to-end runs over real sockets; bounded by the miners' own limits, not by wall time.
setDefaultTimeout(90_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(
  poolOpts: TestPoolOptions = {},
  timing: Parameters<typeof makeEngine>[0] = {},
): Promise<{ pool: TestPool; t: TestEngine }> {
  const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8, ...poolOpts });
  const t = makeEngine(timing);
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
  );
  return { pool, t };
}

describe("hostile input and limits", () => {
  test("blacklisted IP, connection limit, banned wallet: refused with a log line; a mining miner is unaffected", async () => {
    const { pool, t } = await setup();
    const port = makePort({ pool_address: pool.address, limit_connections: 2 });
    const listen = await t.start(port);
    const good = TestMiner.start({ port: listen, user: "ok.rig", maxShares: 1_000_000, maxMs: 30_000 });
    cleanup.push(() => good.stop());
    await until(() => good.report.accepted > 5);

    const banned = await RawClient.connect(listen);
    banned.request(1, "mining.subscribe", []);
    banned.request(2, "mining.authorize", ["thief.x", "x"]);
    t.bannedWallets.add("thief");
    await until(() => banned.closed);
    expect((banned.answer(2)?.error as unknown[] | undefined)?.[0]).toBe(24);
    expect(t.logs.some((l) => l.includes("wallet thief is banned"))).toBe(true);

    const second = await RawClient.connect(listen);
    const third = await RawClient.connect(listen);
    await until(() => third.closed);
    expect(second.closed).toBe(false);
    expect(t.logs.some((l) => l.includes("connection limit 2 reached"))).toBe(true);
    second.close();

    t.bannedIps.add("127.0.0.1");
    const fromBanned = await RawClient.connect(listen);
    await until(() => fromBanned.closed);
    expect(t.logs.some((l) => l.includes("127.0.0.1: address is blacklisted"))).toBe(true);

    const before = good.report.accepted;
    await until(() => good.report.accepted > before + 20);
    expect(good.report.disconnects).toBe(0);
  });

  test("malformed JSON and unknown methods get stratum errors; too many close the socket", async () => {
    const { pool, t } = await setup();
    const listen = await t.start(makePort({ pool_address: pool.address }));
    const c = await RawClient.connect(listen);
    c.send("this is not json\n");
    c.request(5, "mining.teleport", []);
    c.request(6, "mining.ping", []);
    await until(() => c.answer(6) !== undefined);
    expect((c.answer(5)?.error as unknown[] | undefined)?.[0]).toBe(20);
    expect(c.answer(6)?.result).toBe("pong");
    expect(JSON.parse(c.lines[0] as string).error[0]).toBe(20);
    expect(t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);
  });

  test("a line above the maximum length, a login timeout and a flood close the socket", async () => {
    const { pool, t } = await setup({}, { loginTimeoutMs: 150, floodLinesPerSecond: 50 });
    const listen = await t.start(makePort({ pool_address: pool.address }));
    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"mining.subscribe","params":["${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);

    const idle = await RawClient.connect(listen);
    await until(() => idle.closed);
    expect(t.logs.some((l) => l.includes("login timeout"))).toBe(true);

    const flood = await RawClient.connect(listen);
    flood.send(`${'{"id":1,"method":"mining.ping","params":[]}\n'.repeat(200)}`);
    await until(() => flood.closed);
    expect(t.logs.some((l) => l.includes("flood"))).toBe(true);
  });

  test("Efficient mode holds the lines behind a login until the miner's own pool session answers, then answers them in order: a worker the pool does not know is refused, a known one after it mines", async () => {
    const { pool, t } = await setup({ unknownWorkers: ["stranger.rig"] });
    const port = makePort({ pool_address: pool.address, mode: ProxyMode.EFFICIENT });
    const c = await RawClient.connect(await t.start(port));
    cleanup.push(() => c.close());
    c.request(1, "mining.subscribe", []);
    c.request(2, "mining.authorize", ["stranger.rig", "x"]);
    c.request(3, "mining.submit", ["stranger.rig", "0", "00000000", "00000000", "00000000"]);
    c.request(4, "mining.authorize", ["known.rig", "x"]);
    c.request(5, "mining.ping", []);
    await until(() => c.lines.some((l) => l.includes('"method":"mining.notify"')));
    const answered = c.lines.map((l) => JSON.parse(l)).filter((m) => m.method === undefined);
    expect(answered.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    expect(answered[1].error.slice(0, 2)).toEqual([24, "pool refused the worker"]);
    expect(answered[2].error.slice(0, 2)).toEqual([24, "unauthorized worker"]);
    expect(answered[3].result).toBe(true);
    expect(answered[4].result).toBe("pong");
    expect(t.engine.live.workers(port.id).map((d) => `${d.wallet}.${d.name}`)).toEqual(["known.rig"]);
  });

  test("Efficient mode: a pool that cannot be reached answers the held subscribe 'pool unavailable' after twice the connect timeout, long before the login timeout", async () => {
    const { t } = await setup({}, { connectTimeoutMs: 300, loginTimeoutMs: 600_000 });
    const nowhere = `127.0.0.1:${freePort()}`;
    const listen = await t.start(makePort({ pool_address: nowhere, mode: ProxyMode.EFFICIENT }));
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", []);
    c.request(2, "mining.authorize", ["w.rig", "x"]);
    await until(() => c.closed);
    expect(c.answer(1)?.error).toEqual([20, "pool unavailable", null]);
    expect(c.answer(2)).toBeUndefined();
    expect(t.logs.some((l) => l.includes("closed: pool unavailable at subscribe"))).toBe(true);
    expect(t.logs.some((l) => l.includes("login timeout"))).toBe(false);
  });

  test("force success answers true to a rejected share and counts it invalid", async () => {
    const { pool, t } = await setup({ difficulty: 1000 });
    const port = makePort({ pool_address: pool.address, setting: { fr: 1 } });
    const listen = await t.start(port);
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", []);
    c.request(2, "mining.authorize", ["w.r", "x"]);
    const isNotify = (l: string) => l.includes('"method":"mining.notify"');
    await until(() => c.lines.some(isNotify));
    const notify = JSON.parse(c.lines.find(isNotify) as string).params;
    c.request(3, "mining.submit", ["w.r", notify[0], "000000", notify[7], "00000000"]);
    await until(() => c.answer(3) !== undefined);
    expect(c.answer(3)?.result).toBe(true);
    await until(() => (t.engine.live.workers(port.id)[0]?.invalid ?? 0) === 1);
    expect(pool.rejects.get(23)).toBe(1);
    c.close();
  });
});

describe("listeners, relays and rewriting", () => {
  test("SSL port and SSL upstream: a TLS miner mines through the appliance certificate to a TLS pool", async () => {
    const { pool, t } = await setup({ tls: testCertificate() });
    const listen = await t.start(
      makePort({ pool_address: pool.address, connect_mode: ConnectMode.SSL, protocol: ListenProtocol.SSL }),
    );
    const r = await TestMiner.start({ port: listen, tls: true, user: "w.tls", maxShares: 20, maxMs: 20_000 })
      .done;
    expect(r.accepted).toBe(20);
  });

  test("TTS port: plain and TLS miners on the same port, the device keeps its real address", async () => {
    const { pool, t } = await setup();
    const port = makePort({ pool_address: pool.address, protocol: ListenProtocol.TTS });
    const listen = await t.start(port);
    const [a, b] = await Promise.all([
      TestMiner.start({ port: listen, tls: true, user: "w.tls", maxShares: 20, maxMs: 20_000 }).done,
      TestMiner.start({ port: listen, user: "w.plain", maxShares: 20, maxMs: 20_000 }).done,
    ]);
    expect(a.accepted).toBe(20);
    expect(b.accepted).toBe(20);
    expect(t.engine.live.workers(port.id).map((d) => d.ip)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  test("NGINX coin: a plain TCP relay, the pool sees the miner as it is", async () => {
    const { pool, t } = await setup({ extranonce2Size: 2 });
    const port = makePort({ pool_address: pool.address, category: "nginx", currency: "NGINX" });
    const listen = await t.start(port);
    const r = await TestMiner.start({ port: listen, user: "direct.rig", maxShares: 20, maxMs: 20_000 }).done;
    expect(r.accepted).toBe(20);
    expect(r.extranonce2Size).toBe(2);
    expect(pool.workers.get("direct.rig")?.shares).toBe(20);
  });

  test("wallet and miner-name replacement; custom unified wallet", async () => {
    const { pool, t } = await setup();
    const port = makePort({
      pool_address: pool.address,
      pattern_addr: "victim\nother",
      replace_addr: "owner",
      setting: { sd: "*", st: "renamed" },
    });
    const listen = await t.start(port);
    await TestMiner.start({ port: listen, user: "victim.rig7", maxShares: 5, maxMs: 20_000 }).done;
    await TestMiner.start({ port: listen, user: "keep.rig8", maxShares: 5, maxMs: 20_000 }).done;
    expect([...pool.workers.keys()].sort()).toEqual(["keep.renamed", "owner.renamed"]);
    const devices = t.engine.live.workers(port.id);
    expect(devices.map((d) => `${d.wallet}.${d.name}→${d.upstreamUser}`).sort()).toEqual([
      "keep.rig8→keep.renamed",
      "victim.rig7→owner.renamed",
    ]);
  });

  test("Efficient sessions present the miner's agent; setting.ra replaces it", async () => {
    const { pool, t } = await setup();
    const plain = makePort({ pool_address: pool.address });
    const listen = await t.start(plain);
    await TestMiner.start({ port: listen, user: "w.a", agent: "bmminer/2.0", maxShares: 2, maxMs: 20_000 })
      .done;
    const replaced = makePort({ pool_address: pool.address, setting: { ra: "cgminer/4.11" } });
    const listen2 = await t.start(replaced);
    await TestMiner.start({ port: listen2, user: "w.b", agent: "bmminer/2.0", maxShares: 2, maxMs: 20_000 })
      .done;
    expect(pool.agents).toEqual(["bmminer/2.0", "cgminer/4.11"]);
  });

  test("mining.configure: mask intersection, min-bit-count and subscribe-extranonce (BIP310)", async () => {
    const { pool, t } = await setup();
    const listen = await t.start(makePort({ pool_address: pool.address }));
    const c = await RawClient.connect(listen);
    c.request(1, "mining.configure", [
      ["version-rolling", "subscribe-extranonce", "minimum-difficulty"],
      {
        "version-rolling.mask": "ffffffff",
        "version-rolling.min-bit-count": 2,
        "minimum-difficulty.value": 2048,
      },
    ]);
    c.request(2, "mining.configure", [
      ["version-rolling"],
      { "version-rolling.mask": "00006000", "version-rolling.min-bit-count": 4 },
    ]);
    await until(() => c.answer(2) !== undefined);
    expect(c.answer(1)?.result).toEqual({
      "version-rolling": true,
      "version-rolling.mask": "1fffe000",
      "subscribe-extranonce": true,
      "minimum-difficulty": false,
    });
    expect(c.answer(2)?.result).toEqual({ "version-rolling": false });
    c.close();
  });

  test("a pool without version rolling: the miner is told mask 0 and its shares are accepted", async () => {
    const { pool, t } = await setup({ versionRolling: false });
    const listen = await t.start(makePort({ pool_address: pool.address }));
    const r = await TestMiner.start({
      port: listen,
      user: "w.v",
      versionRolling: true,
      maxShares: 20,
      maxMs: 20_000,
    }).done;
    expect(r.accepted).toBe(20);
    expect(r.versionMask).toBe(0);
    expect(pool.rejects.size).toBe(0);
  });
});

describe("port lifecycle", () => {
  test("apply/stop/remove act on the listener; editing the pool moves miners without a disconnect", async () => {
    const { pool, t } = await setup();
    const other = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => other.stop());
    const port = makePort({ pool_address: pool.address });
    const applying = t.engine.apply(port);
    expect(t.engine.runState(port.id)).toBe("queuing");
    await applying;
    expect(t.engine.runState(port.id)).toBe("active");
    const listen = t.engine.running(port.id)?.boundPort ?? 0;
    const miner = TestMiner.start({ port: listen, user: "w.edit", maxShares: 1_000_000, maxMs: 30_000 });
    cleanup.push(() => miner.stop());
    await until(() => pool.accepted >= 10);
    await t.engine.apply({ ...port, pool_address: other.address });
    await until(() => other.accepted >= 10);
    expect(miner.report.disconnects).toBe(0);
    expect(t.engine.stat(port.id).online).toBe(1);
    await t.engine.stop(port.id);
    expect(t.engine.runState(port.id)).toBe("closed");
    await until(() => miner.report.disconnects === 1);
    await t.engine.apply({ ...port, status: 0 });
    expect(t.engine.runState(port.id)).toBe("closed");
    expect(t.engine.live.workers(port.id).length).toBe(1);
    await t.engine.remove(port.id);
    expect(t.engine.live.workers(port.id).length).toBe(0);
  });

  test("ping answers with a latency for a live pool and rejects for a dead one", async () => {
    const { pool, t } = await setup();
    const ms = await t.engine.ping(pool.address, 0, 2000);
    expect(ms).toBeGreaterThanOrEqual(0);
    const deadPort = pool.port;
    pool.stop();
    await expect(t.engine.ping(`127.0.0.1:${deadPort}`, 0, 2000)).rejects.toThrow();
    await expect(t.engine.ping("not an address", 0, 2000)).rejects.toThrow("invalid pool address");
  });
});

describe("churn", () => {
  test("Efficient mode counts a main session for each connected miner, and a miner leaving takes its own", async () => {
    const { pool, t } = await setup();
    const port = makePort({ pool_address: pool.address, mode: ProxyMode.EFFICIENT });
    const listen = await t.start(port);
    const running = t.engine.running(port.id);
    const miners = [0, 1, 2].map((i) => TestMiner.start({ port: listen, user: `s${i}.r`, maxMs: 60_000 }));
    cleanup.push(() => {
      for (const m of miners) m.stop();
    });
    await until(() => running?.online === 3 && pool.connections === 3);
    expect(running?.sessionCounts()).toEqual({ main: 3, fee: 0 });
    miners[0]?.stop();
    await until(() => running?.connected === 2 && pool.connections === 2);
    expect(running?.sessionCounts()).toEqual({ main: 2, fee: 0 });
  });

  test("miners coming and going leave no sessions, jobs or connections behind", async () => {
    const { pool, t } = await setup();
    const port = makePort({ pool_address: pool.address });
    const listen = await t.start(port);
    for (let round = 0; round < 3; round++) {
      const reports = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) => TestMiner.start({ port: listen, user: `c${i}.r`, maxShares: 3, maxMs: 20_000 }).done,
        ),
      );
      for (const r of reports) expect(r.accepted).toBe(3);
    }
    const running = t.engine.running(port.id);
    await until(() => running?.connected === 0 && pool.connections === 0);
    expect(running?.sessionCounts()).toEqual({ main: 0, fee: 0 });
    expect((running?.runtime as BitcoinRuntime | undefined)?.jobs.size).toBe(0);
    expect(t.engine.live.workers(port.id).length).toBe(20);
    expect(t.engine.live.deviceStats()).toEqual({ online: 0, offline: 20, total: 20 });
  });
});

describe("session resume", () => {
  test("a miner presenting its previous session id gets its extranonce1 back", async () => {
    const { pool, t } = await setup();
    const port = makePort({
      pool_address: pool.address,
      mode: ProxyMode.POOL,
      proxy_addr: "farm",
      proxy_device: "px",
    });
    const listen = await t.start(port);
    const first = await RawClient.connect(listen);
    first.request(1, "mining.subscribe", ["cpuminer/2.5"]);
    await until(() => first.answer(1) !== undefined);
    const [subs, en1] = (first.answer(1)?.result ?? []) as [string[][], string, number];
    const sid = subs[1]?.[1] as string;
    first.close();
    await until(() => t.engine.running(port.id)?.connected === 0);
    // another miner takes the next slot meanwhile
    const other = await RawClient.connect(listen);
    other.request(1, "mining.subscribe", []);
    await until(() => other.answer(1) !== undefined);
    const again = await RawClient.connect(listen);
    again.request(1, "mining.subscribe", ["cpuminer/2.5", sid]);
    await until(() => again.answer(1) !== undefined);
    const [subs2, en1b] = (again.answer(1)?.result ?? []) as [string[][], string, number];
    expect(en1b).toBe(en1);
    expect(subs2[1]?.[1]).toBe(sid);
    const [, otherEn1] = (other.answer(1)?.result ?? []) as [string[][], string, number];
    expect(otherEn1).not.toBe(en1);
    // an unknown id is simply a new session
    const stranger = await RawClient.connect(listen);
    stranger.request(1, "mining.subscribe", ["x", "deadbeef"]);
    await until(() => stranger.answer(1) !== undefined);
    const [subs3] = (stranger.answer(1)?.result ?? []) as [string[][], string, number];
    expect(subs3[1]?.[1]).not.toBe("deadbeef");
    for (const c of [other, again, stranger]) c.close();
  });
});
