/**
 * The Alephium family's edges, end to end on 127.0.0.1: failover to the standby pool with miners on
 * their sockets, a fee pool that goes down, a pool refusing a miner's own login, and hostile input.
 * Pools verify every share with blake3.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { alphPort, closeAll, engine, miner, pool, sharesOf } from "../support/alephium/e2e-fixture.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

describe("failover", () => {
  for (const mode of [ProxyMode.EFFICIENT, ProxyMode.POOL] as const)
    test(`${mode === ProxyMode.POOL ? "Pool" : "Efficient"}: the main pool goes down; miners keep their sockets and mine on the standby pool under its prefix`, async () => {
      const a = pool();
      const b = pool();
      const t = engine();
      const port = alphPort({
        pool_address: a.address,
        pool_address2: b.address,
        mode,
        proxy_addr: "unified",
        proxy_device: "farm",
      });
      const listen = await t.start(port);
      const m1 = miner(listen, { user: "wal.m1" });
      const m2 = miner(listen, { user: "wal.m2" });
      const worker = (w: string) => (mode === ProxyMode.POOL ? "unified.farm" : w);
      await until(() => sharesOf(a, worker("wal.m1")) >= 2 && sharesOf(a, worker("wal.m2")) >= 2);
      a.stop();
      await until(() => b.accepted >= 6);
      const [r1, r2] = await Promise.all([m1.finish(), m2.finish()]);

      expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
      expect([r1.disconnects, r2.disconnects]).toEqual([0, 0]);
      expect(b.rejects.size).toBe(0);
      for (const r of [r1, r2])
        expect(r.extranonces.some((e) => b.extranonces.some((x) => e.startsWith(x)))).toBe(true);
      // every share the miners saw accepted was accepted by a pool (shares cut off by the outage are stale)
      expect(a.accepted + b.accepted).toBe(r1.accepted + r2.accepted);
    });
});

describe("fee edges", () => {
  test("a fee pool that goes down sends its miners back to the main pool at once", async () => {
    const a = pool();
    const b = pool();
    const t = engine();
    // 90 %: the scheduler keeps both miners on the fee pool, so only its going down brings them back
    const port = alphPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.9)] });
    const listen = await t.start(port);
    const m1 = miner(listen, { user: "wal.m1" });
    const m2 = miner(listen, { user: "wal.m2" });
    const devices = () => t.engine.registry.devices(port.id);
    await until(() => devices().length === 2 && devices().every((d) => d.mining !== "main"));
    b.stop();
    await until(() => devices().every((d) => d.mining === "main"));
    const atStop = [sharesOf(a, "wal.m1"), sharesOf(a, "wal.m2")] as const;
    await until(() => sharesOf(a, "wal.m1") >= atStop[0] + 3 && sharesOf(a, "wal.m2") >= atStop[1] + 3);
    const [r1, r2] = await Promise.all([m1.finish(), m2.finish()]);
    expect([r1.disconnects, r2.disconnects]).toEqual([0, 0]);
    expect(a.rejects.size).toBe(0);
  });
});

describe("logins", () => {
  test("Efficient: the pool's refusal of a miner's own login is passed on at once and is no pool failure", async () => {
    const a = pool();
    const b = pool();
    const t = engine();
    const port = alphPort({ pool_address: a.address, pool_address2: b.address });
    const listen = await t.start(port);
    const refused = await miner(listen, { user: "banned.rig" }).done;
    expect(refused.loggedIn).toBe(false);
    expect(refused.loginError).toContain("invalid worker");
    // the port stays on its main pool: the next miner logs in there
    const ok = await miner(listen, { user: "wal.rig", maxShares: 2 }).done;
    expect(ok.accepted).toBe(2);
    expect(a.workers.get("wal.rig")?.shares).toBe(2);
    expect(b.connectionsOpened).toBe(0);
  });
});

describe("hostile input", () => {
  const code = (c: RawClient, id: number): unknown => (c.answer(id)?.error as unknown[] | undefined)?.[0];
  const message = (c: RawClient, id: number): unknown => (c.answer(id)?.error as unknown[] | undefined)?.[1];
  const submit = (c: RawClient, id: number, params: Record<string, unknown>): void =>
    c.send(`${JSON.stringify({ id, method: "mining.submit", params })}\n`);

  test("submit before authorize, malformed JSON, unknown method, bad nonces, a nonce outside the prefix, a wrong chain index: refused locally; strikes and an oversize line close the socket", async () => {
    const a = pool();
    const t = engine();
    const port = alphPort({
      pool_address: a.address,
      mode: ProxyMode.POOL,
      proxy_addr: "u",
      proxy_device: "d",
    });
    const listen = await t.start(port);

    const c = await RawClient.connect(listen);
    submit(c, 1, { jobId: "1", fromGroup: 0, toGroup: 0, nonce: "00".repeat(24), worker: "w" });
    c.send("this is not json\n");
    c.request(3, "mining.teleport", []);
    c.request(4, "mining.subscribe", ["raw/1.0"]);
    c.request(5, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(5) !== undefined && c.lines.some((l) => l.includes("mining.notify")));
    expect([code(c, 1), message(c, 1)]).toEqual([22, "unauthorized worker"]);
    expect(JSON.parse(c.lines[1] as string).error).toBeTruthy();
    expect(code(c, 3)).toBe(20);
    expect(t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);
    expect(c.answer(4)?.result).toBe("result");
    expect(c.answer(5)?.result).toBe(true);

    // the job and prefix the proxy gave this miner
    const prefix = JSON.parse(c.lines.find((l) => l.includes("mining.set_extranonce")) as string)
      .params[0] as string;
    expect(prefix.length).toBe(6);
    const job = JSON.parse(c.lines.find((l) => l.includes("mining.notify")) as string).params[0] as {
      jobId: string;
      fromGroup: number;
      toGroup: number;
    };
    const good = { jobId: job.jobId, fromGroup: job.fromGroup, toGroup: job.toGroup, worker: "wal.raw" };
    const inside = prefix + "00".repeat(24 - prefix.length / 2);
    submit(c, 6, { ...good, nonce: `zz${inside.slice(2)}` });
    submit(c, 7, { ...good, nonce: inside.slice(2) });
    const outside =
      (Number.parseInt(prefix.slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, "0") + inside.slice(2);
    submit(c, 8, { ...good, nonce: outside });
    submit(c, 9, { ...good, fromGroup: (job.fromGroup + 1) % 4, nonce: inside });
    submit(c, 10, { ...good, jobId: "nope", nonce: inside });
    await until(() => c.answer(10) !== undefined);
    expect([code(c, 6), message(c, 6)]).toEqual([23, "invalid nonce"]);
    expect(code(c, 7)).toBe(23);
    expect([code(c, 8), message(c, 8)]).toEqual([23, "nonce outside the miner's extranonce"]);
    expect([code(c, 9), message(c, 9)]).toEqual([21, "invalid job chain index"]);
    expect([code(c, 10), message(c, 10)]).toEqual([20, "job not found, maybe expired"]);
    // nothing of that reached the pool; the device counts the refusals
    expect(a.rejects.size + a.accepted).toBe(0);
    const device = t.engine.registry.devices(port.id)[0];
    expect([device?.valid, device?.invalid, device?.stale]).toEqual([0, 4, 1]);
    expect(c.closed).toBe(false);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);

    // one line over the bound closes the socket
    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"mining.authorize","params":["${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);
  });
});
