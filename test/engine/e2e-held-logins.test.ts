/**
 * Logins the proxy holds until a pool has answered, in the families whose sessions wait for their
 * pool (Kaspa and the other nonce-prefix families through MovableMiner, Ethereum's ETHPROXY login,
 * CryptoNote's login): the lines behind a held request wait and are answered in order, a pool that
 * cannot be reached answers the held request after twice the connect timeout, and the login
 * deadline closes a miner that never logs in but not one that did. Real sockets on 127.0.0.1; the
 * Kaspa pool verifies every share with kHeavyHash.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { CryptoNoteE2E } from "../support/cryptonote/e2e-fixture.ts";
import { freePort } from "../support/free-port.ts";
import { kasPort, miner, pool } from "../support/kaspa/e2e-fixture.ts";
import { makeEngine, makePort, type TestEngine, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function engine(timing: Parameters<typeof makeEngine>[0]): TestEngine {
  const t = makeEngine(timing);
  cleanup.push(() => t.engine.shutdown());
  return t;
}

async function client(listen: number): Promise<RawClient> {
  const c = await RawClient.connect(listen);
  cleanup.push(() => c.close());
  return c;
}

/** An address nothing listens on. */
const nowhere = (): string => `127.0.0.1:${freePort()}`;

const logged = (t: TestEngine, text: string): boolean => t.logs.some((l) => l.includes(text));

describe("Kaspa (a family whose miners wait for their pool session)", () => {
  test("Efficient mode holds the lines behind a subscribe and a login until the miner's own pool session answers, then answers them in order: a worker the pool does not know is refused, a known one after it mines", async () => {
    const p = pool({ unknownWorkers: ["stranger.rig"] });
    const t = engine({ connectTimeoutMs: 10_000 });
    const port = kasPort({ pool_address: p.address, mode: ProxyMode.EFFICIENT });
    const c = await client(await t.start(port));
    c.request(1, "mining.subscribe", ["raw/1.0", "EthereumStratum/1.0.0"]);
    c.request(2, "mining.authorize", ["stranger.rig", "x"]);
    c.request(3, "mining.submit", ["stranger.rig", "1", "0000000000000000"]);
    c.request(4, "mining.authorize", ["known.rig", "x"]);
    c.request(5, "mining.extranonce.subscribe", []);
    await until(() => c.answer(5) !== undefined && c.lines.some((l) => l.includes('"mining.notify"')));
    const answered = c.lines.map((l) => JSON.parse(l)).filter((m) => m.method === undefined);
    expect(answered.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    expect(answered[0].result).toEqual([true, "EthereumStratum/1.0.0"]);
    expect(answered[1].error.slice(0, 2)).toEqual([24, "pool refused the worker"]);
    expect(answered[2].error[1]).toBe("unauthorized worker");
    expect(answered[3].result).toBe(true);
    expect(t.engine.live.workers(port.id).map((d) => `${d.wallet}.${d.name}`)).toEqual(["known.rig"]);
    expect([...p.workers.keys()]).toEqual([]);
  });

  test("Efficient mode: a pool that cannot be reached answers the held subscribe 'pool unavailable' after twice the connect timeout, long before the login timeout", async () => {
    const t = engine({ connectTimeoutMs: 300, loginTimeoutMs: 600_000 });
    const listen = await t.start(kasPort({ pool_address: nowhere(), mode: ProxyMode.EFFICIENT }));
    const c = await client(listen);
    c.request(1, "mining.subscribe", ["raw/1.0", "EthereumStratum/1.0.0"]);
    c.request(2, "mining.authorize", ["w.rig", "x"]);
    await until(() => c.closed);
    expect(c.answer(1)?.error).toEqual([20, "pool unavailable", null]);
    expect(c.answer(2)).toBeUndefined();
    expect(logged(t, "closed: pool unavailable at subscribe")).toBe(true);
    expect(logged(t, "login timeout")).toBe(false);
  });

  test("the login deadline closes a connection that never logs in, and not a miner that logged in before it", async () => {
    const p = pool({});
    const t = engine({ connectTimeoutMs: 10_000, loginTimeoutMs: 1_000 });
    const listen = await t.start(kasPort({ pool_address: p.address, mode: ProxyMode.EFFICIENT }));
    const m = miner(listen, { user: "wal.rig", maxShares: 1_000_000 });
    await until(() => (p.workers.get("wal.rig")?.shares ?? 0) >= 1);
    // connected after the miner, so its deadline passes after the miner's would have
    const idle = await client(listen);
    await until(() => idle.closed);
    expect(logged(t, "login timeout")).toBe(true);
    const before = p.workers.get("wal.rig")?.shares ?? 0;
    await until(() => (p.workers.get("wal.rig")?.shares ?? 0) > before);
    m.stop();
    const r = await m.done;
    expect(r.closedByProxy).toBe(false);
  });
});

describe("Ethereum ETHPROXY (the login logs the miner's own pool session in)", () => {
  test("Efficient mode: a pool that cannot be reached answers the held eth_submitLogin 'pool unavailable' after twice the connect timeout, and the lines behind it are not answered", async () => {
    const t = engine({ connectTimeoutMs: 300, loginTimeoutMs: 600_000 });
    const port = makePort({
      currency: "ETC",
      category: "eth1hash",
      pool_address: nowhere(),
      mode: ProxyMode.EFFICIENT,
    });
    const c = await client(await t.start(port));
    c.send(
      `${JSON.stringify({ id: 1, jsonrpc: "2.0", method: "eth_submitLogin", params: ["0xabc.rig", "x"] })}\n`,
    );
    c.send(`${JSON.stringify({ id: 2, jsonrpc: "2.0", method: "eth_getWork", params: [] })}\n`);
    await until(() => c.closed);
    expect(c.answer(1)?.error).toEqual({ code: 20, message: "pool unavailable" });
    expect(c.answer(2)).toBeUndefined();
    expect(logged(t, "closed: pool unavailable at login")).toBe(true);
    expect(logged(t, "login timeout")).toBe(false);
  });
});

describe("CryptoNote (the login is answered with the first job)", () => {
  test("a pool that cannot be reached answers the held login 'No pool available' after twice the connect timeout, long before the login timeout, and the lines behind it are not answered", async () => {
    const env = new CryptoNoteE2E({ connectTimeoutMs: 300, loginTimeoutMs: 600_000 });
    cleanup.push(() => env.close());
    const listen = await env.t.start(env.port({ pool_address: nowhere(), mode: ProxyMode.EFFICIENT }));
    const c = await client(listen);
    const send = (id: number, method: string, params: unknown) =>
      c.send(`${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`);
    send(1, "login", { login: "4Wallet", pass: "x", agent: "raw/1.0" });
    send(2, "keepalived", { id: "x" });
    await until(() => c.closed);
    expect(c.answer(1)?.error).toEqual({ code: -1, message: "No pool available" });
    expect(c.answer(2)).toBeUndefined();
    expect(env.t.logs.some((l) => l.includes("closed: pool unavailable at login"))).toBe(true);
    expect(env.t.logs.some((l) => l.includes("login timeout"))).toBe(false);
  });
});
