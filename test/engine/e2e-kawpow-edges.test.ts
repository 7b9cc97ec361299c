/**
 * The KawPow family's edges, end to end on 127.0.0.1: failover to the standby pool, a fee pool on
 * another epoch, a fee pool that goes down, a miner that cannot take a new nonce prefix, and hostile
 * input. STRUCTURE ONLY: the test pools check share structure and the test-only stand-in hash of
 * test/support/kawpow/stand-in-pow.ts, not ProgPoW.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { closeAll, engine, kawPort, miner, pool } from "../support/kawpow/e2e-fixture.ts";
import { standInHash } from "../support/kawpow/stand-in-pow.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

/** Slow enough (≈4096 stand-in hashes a share) for the fee scheduler to move miners between shares. */
const FEE_DIFFICULTY = 2 ** -20;

describe("failover (structure only)", () => {
  test("the main pool goes down: miners keep their sockets, take the standby session's prefix and mine there (structure only)", async () => {
    const a = await pool();
    const b = await pool();
    const t = engine();
    const port = kawPort({ pool_address: a.address, pool_address2: b.address });
    const listen = await t.start(port);
    const m1 = miner(listen, { user: "wal.rig1" });
    const m2 = miner(listen, { user: "wal.rig2" });
    await until(
      () => (a.workers.get("wal.rig1")?.shares ?? 0) >= 2 && (a.workers.get("wal.rig2")?.shares ?? 0) >= 2,
    );
    a.stop();
    await until(
      () => (b.workers.get("wal.rig1")?.shares ?? 0) >= 2 && (b.workers.get("wal.rig2")?.shares ?? 0) >= 2,
    );
    const [r1, r2] = await Promise.all([m1.finish(), m2.finish()]);

    expect(t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
    expect([r1.disconnects, r2.disconnects]).toEqual([0, 0]);
    // the standby sessions have other prefixes: the miners were given them by mining.set_extranonce
    for (const r of [r1, r2]) {
      expect(r.setExtranonce).toBeGreaterThan(0);
      expect(r.prefixes.length).toBeGreaterThan(1);
    }
    expect(b.rejects.size).toBe(0);
    // every share the miners saw accepted was accepted by a pool (shares cut off by the outage are stale)
    expect(a.accepted + b.accepted).toBe(r1.accepted + r2.accepted);
  });
});

describe("fee edges (structure only)", () => {
  test("a fee pool on another epoch (another seed hash) is not used, and the log says why (structure only)", async () => {
    const a = await pool({ height: 3_000_000, difficulty: FEE_DIFFICULTY });
    const b = await pool({ height: 3_000_000 + 7_500, difficulty: FEE_DIFFICULTY });
    expect(b.seed).not.toBe(a.seed);
    const t = engine();
    const port = kawPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.3)] });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "wal.rig1", maxShares: 15 }).done;

    expect(r.accepted).toBe(15);
    expect(a.accepted).toBe(15);
    expect(b.accepted).toBe(0);
    expect(r.setExtranonce).toBe(0);
    expect(t.logs.some((l) => l.includes("its pool mines another epoch") && l.includes("not used"))).toBe(
      true,
    );
  });

  test("a fee pool that goes down sends its miners back to the main pool at once (structure only)", async () => {
    const a = await pool({ difficulty: FEE_DIFFICULTY });
    const b = await pool({ difficulty: FEE_DIFFICULTY });
    const t = engine();
    // 90 %: the scheduler keeps the miners on the fee pool, so only its going down brings them back
    const port = kawPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.9)] });
    const listen = await t.start(port);
    const m1 = miner(listen, { user: "wal.rig1" });
    const m2 = miner(listen, { user: "wal.rig2" });
    const devices = () => t.engine.registry.devices(port.id);
    await until(() => devices().length === 2 && devices().every((d) => d.mining !== "main"));
    b.stop();
    await until(() => devices().every((d) => d.mining === "main"));
    const atStop = a.accepted;
    await until(() => a.accepted >= atStop + 6);
    const [r1, r2] = await Promise.all([m1.finish(), m2.finish()]);
    expect([r1.disconnects, r2.disconnects]).toEqual([0, 0]);
    expect(a.rejects.size).toBe(0);
  });

  test("a miner without mining.extranonce.subscribe pays its fee on its own session (Compatible-style), logged (structure only)", async () => {
    const a = await pool({ difficulty: FEE_DIFFICULTY });
    const b = await pool({ difficulty: FEE_DIFFICULTY });
    const t = engine();
    const port = kawPort({
      pool_address: a.address,
      mode: ProxyMode.EFFICIENT,
      wallets: [feeWallet(1, "feeaddr", b.address, 0.3)],
    });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "wal.rig1", extranonceSubscribe: false, maxShares: 20 }).done;

    expect(r.accepted).toBe(20);
    expect(r.setExtranonce).toBe(0);
    expect(
      t.logs.some((l) => l.includes("no mining.extranonce.subscribe") && l.includes("Compatible fee")),
    ).toBe(true);
    // the fee worker's shares went to the main pool on the miner's own session; the fee pool saw none
    expect(b.connectionsOpened).toBe(0);
    const fee = a.workers.get("feeaddr.fee")?.shares ?? 0;
    expect(fee + (a.workers.get("wal.rig1")?.shares ?? 0)).toBe(20);
    expect(fee / 20).toBeGreaterThan(0.15);
    expect(fee / 20).toBeLessThan(0.45);
  });
});

interface Notify {
  jobId: string;
  header: string;
  target: bigint;
}

/** The last mining.notify a raw client was sent. */
function lastNotify(c: RawClient): Notify | null {
  for (let i = c.lines.length - 1; i >= 0; i--) {
    const m = JSON.parse(c.lines[i] as string) as { method?: string; params?: unknown[] };
    if (m.method === "mining.notify" && m.params) {
      const [jobId, header, , target] = m.params as [string, string, string, string];
      return { jobId, header, target: BigInt(`0x${target}`) };
    }
  }
  return null;
}

/** A nonce under `prefix` whose stand-in hash meets the target, found by search like a miner's. */
function solve(prefix: string, job: Notify, from = 0): { nonce: string; mix: string } {
  for (let i = from; ; i++) {
    const nonce = prefix + i.toString(16).padStart(16 - prefix.length, "0");
    const pow = standInHash(job.header, nonce);
    if (pow.final <= job.target) return { nonce, mix: pow.mix };
  }
}

/** The nonce prefix of a subscribe answer [null, prefix]. */
const subscribedPrefix = (c: RawClient, id: number): string =>
  String((c.answer(id)?.result as [null, string] | undefined)?.[1] ?? "");
const errorCode = (c: RawClient, id: number): unknown => (c.answer(id)?.error as unknown[] | undefined)?.[0];
const errorText = (c: RawClient, id: number): string =>
  String((c.answer(id)?.error as unknown[] | undefined)?.[1] ?? "");

describe("hostile input", () => {
  test("submit before authorize, malformed JSON, unknown methods, nonces without 0x, of the wrong length or outside the prefix, a foreign header, a repeated nonce: refused locally; repeated strikes and an oversize line close the socket", async () => {
    const a = await pool();
    const t = engine();
    const listen = await t.start(kawPort({ pool_address: a.address }));

    const c = await RawClient.connect(listen);
    c.request(1, "mining.submit", [
      "wal.raw",
      "1",
      `0x${"00".repeat(8)}`,
      `0x${"11".repeat(32)}`,
      `0x${"22".repeat(32)}`,
    ]);
    c.send("this is not json\n");
    c.request(3, "mining.teleport", []);
    c.request(4, "mining.subscribe", ["raw/1.0", null, "127.0.0.1", String(listen)]);
    c.request(5, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(5) !== undefined && lastNotify(c) !== null);
    expect(errorCode(c, 1)).toBe(24);
    expect(JSON.parse(c.lines[1] as string).error).toBeTruthy();
    expect(errorCode(c, 3)).toBe(20);
    expect(t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);
    const prefix = subscribedPrefix(c, 4);
    expect(prefix).toBe(a.extranonces[0] ?? "");
    expect(c.answer(5)?.result).toBe(true);

    const job = lastNotify(c) as Notify;
    const good = solve(prefix, job);
    const hdr = `0x${job.header}`;
    const outside = (Number.parseInt(prefix.slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, "0");
    const foreign = solve(outside + prefix.slice(2), job);
    c.request(6, "mining.submit", ["wal.raw", job.jobId, good.nonce, hdr, `0x${good.mix}`]);
    c.request(7, "mining.submit", ["wal.raw", job.jobId, `0x${good.nonce.slice(2)}`, hdr, `0x${good.mix}`]);
    c.request(8, "mining.submit", ["wal.raw", job.jobId, `0x${foreign.nonce}`, hdr, `0x${foreign.mix}`]);
    c.request(9, "mining.submit", [
      "wal.raw",
      job.jobId,
      `0x${good.nonce}`,
      `0x${"33".repeat(32)}`,
      `0x${good.mix}`,
    ]);
    c.request(10, "mining.submit", ["wal.raw", job.jobId, `0x${good.nonce}`, hdr, `0x${good.mix}`]);
    c.request(11, "mining.submit", ["wal.raw", job.jobId, `0x${good.nonce}`, hdr, `0x${good.mix}`]);
    // the repeat (11) is answered locally at once, the share (10) only when the pool has answered
    await until(() => c.answer(10) !== undefined && c.answer(11) !== undefined);
    expect(errorText(c, 6)).toContain("nonce");
    expect(errorText(c, 7)).toContain("nonce");
    expect(errorText(c, 8)).toContain("prefix");
    expect(errorText(c, 9)).toContain("header");
    // the one well-formed share goes to the pool and is accepted there; its repeat never leaves
    expect(c.answer(10)?.result).toBe(true);
    expect(errorCode(c, 11)).toBe(22);
    expect(a.accepted).toBe(1);
    expect(a.rejects.size).toBe(0);
    expect(c.closed).toBe(false);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);

    // one line over the bound closes the socket
    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"mining.subscribe","params":["${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);
  });
});

/**
 * A real Ravencoin share: block 2,543,241, as pinned by MintPond/hasher-kawpow's test_kawpow.py (the
 * KawPow hash of this header hash and nonce gives this mix hash). The stratum nonce is the u64 in
 * big-endian hex, so a pool's prefix is its high bytes: this block was mined under "c9b1".
 */
const RVN_2543241 = {
  header: "0565cd49085a5b50b783aa1ba12b7fc73fffd6dc5345de1fb5389b0977e4caa2",
  nonce: "c9b1000029c69813",
  mix: "7e8b16f02604df24780ddcc56297fa66c062c2db26a8d54e102ef8c53111e15b",
};

describe("a real block's share", () => {
  test("Ravencoin block 2,543,241: header hash, nonce (under its pool's prefix c9b1) and mix hash reach the pool byte for byte, and the pool's verdict comes back (structure only)", async () => {
    const a = await pool({
      header: RVN_2543241.header,
      extranonce: "c9b1",
      height: 2_543_241,
      jobIntervalMs: 0,
    });
    const t = engine();
    const listen = await t.start(kawPort({ pool_address: a.address }));
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", ["raw/1.0", null, "127.0.0.1", String(listen)]);
    c.request(2, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(2) !== undefined && lastNotify(c) !== null);
    expect(subscribedPrefix(c, 1)).toBe("c9b1");
    const job = lastNotify(c) as Notify;
    expect(job.header).toBe(RVN_2543241.header);
    const params = [
      "wal.raw",
      job.jobId,
      `0x${RVN_2543241.nonce}`,
      `0x${RVN_2543241.header}`,
      `0x${RVN_2543241.mix}`,
    ];
    c.request(3, "mining.submit", params);
    await until(() => c.answer(3) !== undefined);

    expect(a.submits.length).toBe(1);
    const [worker, poolJobId, ...hashes] = a.submits[0] as string[];
    expect(worker).toBe("wal.raw");
    expect(poolJobId).toBe("1");
    expect(hashes).toEqual(params.slice(2));
    // the test pool's stand-in is not KawPow, so it refuses the real mix hash; the miner hears it
    expect(a.rejects.get("mix")).toBe(1);
    expect(errorText(c, 3)).toBe("mix");
  });
});
