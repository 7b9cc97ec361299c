/**
 * The pass-through family end to end: scripted miners through a port to a line-level test pool in
 * three pool shapes (Ergo's stratum, an ALEO-style one with numbers above 2^53, Dynex's
 * CryptoNote-style login). The pool judges shares by structure only (no hashing: the relay does not
 * look at these coins' work either). Checked: the pool gets the rewritten login and every other
 * line byte for byte, the miner gets the pool's lines byte for byte, verdicts and latency reach the
 * device list; failover; hostile input.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { LineMiner } from "../support/passthrough/line-miner.ts";
import { ALEO_TARGET, type Dialect, LinePool } from "../support/passthrough/line-pool.ts";
import { makeEngine, makePort, type TestEngine, until } from "../support/stratum/port-fixture.ts";

setDefaultTimeout(30_000);

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function pool(dialect: Dialect): LinePool {
  const p = new LinePool(dialect).start();
  cleanup.push(() => p.stop());
  return p;
}

function engine(timing: Parameters<typeof makeEngine>[0] = {}): TestEngine {
  const t = makeEngine(timing);
  cleanup.push(() => t.engine.shutdown());
  return t;
}

const COINS: Record<Dialect, { currency: string; category: string }> = {
  ergo: { currency: "ERG", category: "autoykos2" },
  aleo: { currency: "ALEO", category: "zksnark" },
  dynex: { currency: "DNX", category: "dynexsolve" },
};

/** A test pool of `dialect` and a running port of its coin in front of it. */
async function relayPort(
  dialect: Dialect,
  over: Omit<Parameters<typeof makePort>[0], "pool_address"> = {},
  timing: Parameters<typeof makeEngine>[0] = {},
) {
  const p = pool(dialect);
  const t = engine(timing);
  const port = makePort({ pool_address: p.address, ...COINS[dialect], ...over });
  return { p, t, port, listen: await t.start(port) };
}

async function miner(listen: number): Promise<LineMiner> {
  const m = await LineMiner.connect(listen);
  cleanup.push(() => m.close());
  return m;
}

describe("relay", () => {
  test("Ergo stratum: the pool gets the rewritten worker and every other line byte for byte; verdicts, difficulty and latency reach the device", async () => {
    const { p, t, port, listen } = await relayPort("ergo", {
      pattern_addr: "9fMinerWallet",
      replace_addr: "9fOperatorWallet",
      setting: { sd: "*", st: "farm" },
    });
    const m = await miner(listen);
    // odd spacing, a CRLF line, non-ASCII text and a key order JSON.stringify would not keep
    const subscribe = `{ "id": 1, "method": "mining.subscribe", "params": ["lolMiner/1.88 ⛏"] }\r\n`;
    const authorize = `{"params":["9fMinerWallet.rig1","x"],"id":2,"method":"mining.authorize"}\n`;
    m.send(subscribe + authorize);
    await until(() => m.lines().length >= 4);
    const submits = [
      `{"id":3,"method":"mining.submit","params":["9fMinerWallet.rig1","job-1","00000001"]}\n`,
      `{"id":4,"method":"mining.submit","params":["9fMinerWallet.rig1","job-1","00000002"]}\n`,
      `{"id":5,"method":"mining.submit","params":["9fMinerWallet.rig1","job-1","00000002"]}\n`,
      `{"id":"six","method":"mining.submit","params":["9fMinerWallet.rig1","job-0","00000003"]}\n`,
      "not json at all\n",
    ];
    m.send(submits.join(""));
    await until(() => m.lines().some((l) => l.includes('"six"')) && (p.connections[0]?.raw.length ?? 0) >= 7);

    const conn = p.connections[0];
    expect(p.connections.length).toBe(1);
    expect(conn?.user).toBe("9fOperatorWallet.farm");
    expect(conn?.raw).toEqual([
      subscribe,
      `{"params":["9fOperatorWallet.farm","x"],"id":2,"method":"mining.authorize"}\n`,
      // a line that is not JSON is relayed too: the pool judges it
      ...submits,
    ]);
    expect(p.accepted).toBe(2);
    expect(p.rejected).toBe(2);
    // the miner got the pool's lines exactly as the pool wrote them
    expect(
      m.received.startsWith(
        `{"id":1,"result":[[["mining.notify","ae6812eb4cd7735a302a8a9dd95cf71f"]],"6a3f",6],"error":null}\n`,
      ),
    ).toBe(true);
    expect(m.answer(5)?.error).toEqual([22, "Duplicate share", null]);

    const [d] = t.engine.live.workers(port.id);
    expect(d?.wallet).toBe("9fMinerWallet");
    expect(d?.name).toBe("rig1");
    expect(d?.upstreamUser).toBe("9fOperatorWallet.farm");
    expect(d?.agent).toBe("lolMiner/1.88 ⛏");
    expect([d?.valid, d?.invalid, d?.stale]).toEqual([2, 1, 1]);
    expect(d?.difficulty).toBe(4);
    expect(d?.latencyMs).toBeGreaterThan(0);
    expect(d?.online).toBe(true);
    expect(t.engine.running(port.id)?.sessionCounts()).toEqual({ main: 1, fee: 0 });
  });

  test("ALEO-style pool: numbers above 2^53 pass unchanged both ways; a unified wallet replaces the miner's", async () => {
    const { p, t, port, listen } = await relayPort("aleo", {
      proxy_addr: "aleo1operator",
      setting: { cp_mode: 1 },
    });
    const m = await miner(listen);
    m.send(`{"id":1,"method":"mining.subscribe","params":["zkminer/1.0","AleoStratum/2.0.0",null]}\n`);
    m.send(`{"id":2,"method":"mining.authorize","params":["aleo1minerwallet.gpu7",""]}\n`);
    await until(() => m.lines().length >= 4);
    expect(m.received).toContain(`"params":[${ALEO_TARGET}]`);
    const share = `{"id":3,"method":"mining.submit","params":["aleo1minerwallet.gpu7","job-1",18446744073709551615,"0x1f"]}\n`;
    m.send(share);
    await until(() => m.answer(3) !== undefined);
    expect(p.connections[0]?.raw[1]).toBe(
      `{"id":2,"method":"mining.authorize","params":["aleo1operator.gpu7",""]}\n`,
    );
    expect(p.connections[0]?.raw[2]).toBe(share);
    const [d] = t.engine.live.workers(port.id);
    expect([d?.wallet, d?.valid]).toEqual(["aleo1minerwallet", 1]);
  });

  test("Dynex: the worker is the stratum password; the rewritten name goes there, shares are counted from {status: OK}", async () => {
    const { p, t, port, listen } = await relayPort("dynex", { setting: { sd: "rig9", st: "farm" } });
    const m = await miner(listen);
    m.send(
      `{"id":1,"jsonrpc":"2.0","method":"login","params":{"login":"XwnWallet","pass":"rig9","agent":"DynexSolve/2.3"}}\n`,
    );
    await until(() => m.answer(1) !== undefined);
    m.send(
      `{"id":2,"jsonrpc":"2.0","method":"submit","params":{"id":"rpc1","job_id":"job-1","nonce":"0a0b0c0d","result":"00"}}\n`,
    );
    await until(() => m.answer(2) !== undefined);
    expect([p.connections[0]?.user, p.connections[0]?.pass]).toEqual(["XwnWallet", "farm"]);
    const [d] = t.engine.live.workers(port.id);
    expect([d?.wallet, d?.name, d?.agent, d?.valid]).toEqual(["XwnWallet", "rig9", "DynexSolve/2.3", 1]);
  });

  test("forced successful share return (fr): a rejected share is answered true and still counted rejected", async () => {
    const { p, t, port, listen } = await relayPort("ergo", { setting: { fr: 1 } });
    const m = await miner(listen);
    m.send(`{"id":1,"method":"mining.authorize","params":["9fW.r","x"]}\n`);
    m.send(`{"id":2,"method":"mining.submit","params":["9fW.r","job-0","01"]}\n`);
    await until(() => m.answer(2) !== undefined);
    expect(m.answer(2)).toEqual({ id: 2, result: true, error: null } as never);
    expect(p.rejected).toBe(1);
    expect(t.engine.live.workers(port.id)[0]?.stale).toBe(1);
  });
});

describe("failover", () => {
  test("a main pool that cannot be reached moves the port to the standby; the miner reconnects there and logs in rewritten", async () => {
    const dead = pool("ergo");
    const deadAddress = dead.address;
    dead.stop();
    const standby = pool("ergo");
    const t = engine();
    const port = makePort({
      pool_address: deadAddress,
      pool_address2: standby.address,
      currency: "ERG",
      category: "autoykos2",
      setting: { cp_name: 1 },
      proxy_device: "unified",
    });
    const listen = await t.start(port);
    const first = await miner(listen);
    first.send(`{"id":1,"method":"mining.authorize","params":["9fW.rig","x"]}\n`);
    await until(() => first.closed);
    expect(t.engine.running(port.id)?.onStandby).toBe(true);
    const again = await miner(listen);
    again.send(`{"id":1,"method":"mining.authorize","params":["9fW.rig","x"]}\n`);
    await until(() => again.answer(1) !== undefined);
    expect(standby.connections[0]?.user).toBe("9fW.unified");
    expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
  });

  test("a pool session that drops disconnects its miner only; the others keep mining", async () => {
    const { p, listen } = await relayPort("ergo");
    const a = await miner(listen);
    const b = await miner(listen);
    a.send(`{"id":1,"method":"mining.authorize","params":["9fA.a","x"]}\n`);
    b.send(`{"id":1,"method":"mining.authorize","params":["9fB.b","x"]}\n`);
    await until(() => a.answer(1) !== undefined && b.answer(1) !== undefined);
    p.connections.find((c) => c.user === "9fA.a")?.socket.end();
    await until(() => a.closed);
    b.send(`{"id":2,"method":"mining.submit","params":["9fB.b","job-1","0b"]}\n`);
    await until(() => b.answer(2) !== undefined);
    expect(b.answer(2)?.result).toBe(true);
    expect(b.closed).toBe(false);
  });
});

describe("a pool's silence", () => {
  test("a pool that keeps talking keeps its miner's session past the silence timeout; one that falls silent ends it and the miner is closed", async () => {
    const talking = new LinePool("ergo", { jobIntervalMs: 150 }).start();
    cleanup.push(() => talking.stop());
    const t = engine({ jobTimeoutMs: 600 });
    const port = makePort({ pool_address: talking.address, ...COINS.ergo });
    const listen = await t.start(port);
    const m = await miner(listen);
    m.send(`{"id":1,"method":"mining.authorize","params":["9fW.rig","x"]}\n`);
    await until(() => m.answer(1) !== undefined);
    // four silence timeouts long, with a job every 150 ms
    await Bun.sleep(2_400);
    expect(m.closed).toBe(false);
    m.send(`{"id":2,"method":"mining.submit","params":["9fW.rig","job-1","0a"]}\n`);
    await until(() => m.answer(2) !== undefined);
    expect(m.answer(2)?.result).toBe(true);

    // a pool that accepts the connection and never sends a line
    const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } });
    cleanup.push(() => mute.stop(true));
    const t2 = engine({ jobTimeoutMs: 600 });
    const listen2 = await t2.start(makePort({ pool_address: `127.0.0.1:${mute.port}`, ...COINS.ergo }));
    const quiet = await miner(listen2);
    quiet.send(`{"id":1,"method":"mining.authorize","params":["9fW.rig","x"]}\n`);
    await until(() => quiet.closed);
    expect(t2.logs.some((l) => l.includes("pool session ended: no answer from pool in time"))).toBe(true);
  });
});

describe("hostile input", () => {
  test("an oversize line, a flood and a miner that never logs in are closed; other miners are not affected", async () => {
    const { p, t, port, listen } = await relayPort(
      "ergo",
      {},
      { floodLinesPerSecond: 50, loginTimeoutMs: 300 },
    );
    const good = await miner(listen);
    good.send(`{"id":1,"method":"mining.authorize","params":["9fGood.g","x"]}\n`);
    await until(() => good.answer(1) !== undefined);

    const long = await miner(listen);
    long.send(`{"id":1,"method":"mining.authorize","params":["${"a".repeat(40_000)}`);
    const flood = await miner(listen);
    flood.send(`{"id":1,"method":"mining.authorize","params":["9fF.f","x"]}\n`);
    flood.send(`{"id":2,"method":"mining.extranonce.subscribe","params":[]}\n`.repeat(200));
    const silent = await miner(listen);
    silent.send(`{"id":1,"method":"mining.subscribe","params":["x"]}\n`);
    await until(() => long.closed && flood.closed && silent.closed);
    for (const why of ["line too long", "flood: too many lines per second", "login timeout"])
      expect(t.logs.some((l) => l.includes(why))).toBe(true);
    // nothing of the oversize line reached a pool
    expect(p.received()).not.toContain("aaaa");

    good.send(`{"id":2,"method":"mining.submit","params":["9fGood.g","job-1","0c"]}\n`);
    await until(() => good.answer(2) !== undefined);
    expect(good.answer(2)?.result).toBe(true);
    expect(t.engine.running(port.id)?.connected).toBe(1);
  });
});
