/**
 * The Equihash family's edges, end to end on 127.0.0.1: failover to the standby pool, a fee pool
 * that goes down, a miner that cannot take a new NONCE_1, and hostile input. The test pools verify
 * every share; live shares use the reduced Equihash parameters of the tests (48,5).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { bytesToHex } from "@noble/hashes/utils.js";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { closeAll, engine, eqPort, miner, pool } from "../support/equihash/e2e-fixture.ts";
import { solve, TEST_PARAMS, withLength } from "../support/equihash/equihash.ts";
import { type HeaderFields, hashValue, headerBytes } from "../support/equihash/header.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(60_000);

afterEach(closeAll);

/** One solution in 32 meets it: shares far enough apart for the fee scheduler to move miners. */
const FEE_DIFFICULTY = 2 ** -8;

describe("failover (reduced Equihash parameters in the test)", () => {
  test("the main pool goes down: miners keep their sockets, take the standby session's NONCE_1 and mine there (reduced Equihash parameters in the test)", async () => {
    const a = await pool();
    const b = await pool();
    const t = engine();
    const port = eqPort({ pool_address: a.address, pool_address2: b.address });
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
    for (const r of [r1, r2]) {
      expect(r.setExtranonce).toBeGreaterThan(0);
      expect(r.nonce1s.length).toBeGreaterThan(1);
    }
    expect(b.rejects.size).toBe(0);
    expect(a.accepted + b.accepted).toBe(r1.accepted + r2.accepted);
  });
});

describe("fee edges (reduced Equihash parameters in the test)", () => {
  test("a fee pool with a longer NONCE_1 (8 bytes against the main pool's 3): moved miners mine a shorter NONCE_2 there and every share is accepted at both pools (reduced Equihash parameters in the test)", async () => {
    const a = await pool({ difficulty: FEE_DIFFICULTY, nonce1Bytes: 3 });
    const b = await pool({ difficulty: FEE_DIFFICULTY, nonce1Bytes: 8 });
    const t = engine();
    const port = eqPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.3)] });
    const listen = await t.start(port);
    const r = await miner(listen, { user: "wal.rig1", maxShares: 20 }).done;

    expect(r.accepted).toBe(20);
    expect(r.rejected.size).toBe(0);
    expect(a.accepted).toBeGreaterThan(0);
    expect(b.accepted).toBeGreaterThan(0);
    expect(a.accepted + b.accepted).toBe(20);
    // the miner held the fee session's NONCE_1 ‖ its slot byte there (9 bytes, so it sent 23 bytes of
    // NONCE_2); the fee pool got its slot byte back in front: 24 bytes after its own 8
    expect(r.nonce1s.some((n) => n.length === 18 && n.startsWith(b.nonce1s[0] ?? "-"))).toBe(true);
    expect(b.submits.every((s) => String(s[3]).length === 48)).toBe(true);
  });

  test("a fee pool that goes down sends its miners back to the main pool at once (reduced Equihash parameters in the test)", async () => {
    const a = await pool({ difficulty: FEE_DIFFICULTY });
    const b = await pool({ difficulty: FEE_DIFFICULTY });
    const t = engine();
    // 90 %: the scheduler keeps the miners on the fee pool, so only its going down brings them back
    const port = eqPort({ pool_address: a.address, wallets: [feeWallet(1, "feeaddr", b.address, 0.9)] });
    const listen = await t.start(port);
    const m1 = miner(listen, { user: "wal.rig1" });
    const m2 = miner(listen, { user: "wal.rig2" });
    const devices = () => t.engine.registry.devices(port.id);
    await until(() => devices().length === 2 && devices().every((d) => d.mining !== "main"));
    b.stop();
    await until(() => devices().every((d) => d.mining === "main"));
    const atStop = a.accepted;
    await until(() => a.accepted >= atStop + 4);
    const [r1, r2] = await Promise.all([m1.finish(), m2.finish()]);
    expect([r1.disconnects, r2.disconnects]).toEqual([0, 0]);
    expect(a.rejects.size).toBe(0);
  });

  test("a miner without mining.extranonce.subscribe pays its fee on its own session (Compatible-style), logged (reduced Equihash parameters in the test)", async () => {
    const a = await pool({ difficulty: FEE_DIFFICULTY });
    const b = await pool({ difficulty: FEE_DIFFICULTY });
    const t = engine();
    const port = eqPort({
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
    expect(a.rejects.size).toBe(0);
    expect(fee / 20).toBeGreaterThan(0.1);
    expect(fee / 20).toBeLessThan(0.5);
  });
});

interface Notify extends HeaderFields {
  jobId: string;
}

/** The last mining.notify a raw client was sent, and the last set_target before it. */
function lastNotify(c: RawClient): { job: Notify; target: bigint } | null {
  let job: Notify | null = null;
  for (let i = c.lines.length - 1; i >= 0; i--) {
    const m = JSON.parse(c.lines[i] as string) as { method?: string; params?: unknown[] };
    if (job === null && m.method === "mining.notify" && m.params) {
      const [jobId, version, prevHash, merkleRoot, reserved, time, bits] = m.params as string[];
      job = {
        jobId: jobId as string,
        version: version as string,
        prevHash: prevHash as string,
        merkleRoot: merkleRoot as string,
        reserved: reserved as string,
        time: time as string,
        bits: bits as string,
      };
    } else if (job !== null && m.method === "mining.set_target" && m.params)
      return { job, target: BigInt(`0x${m.params[0] as string}`) };
  }
  return null;
}

/** A NONCE_2 and solution (hex, with its length) whose block hash meets the target, found by solving. */
function share(
  nonce1: string,
  work: { job: Notify; target: bigint },
  from = 0,
): { nonce2: string; solution: string } {
  for (let i = from; ; i++) {
    const nonce2 = i.toString(16).padStart(64 - nonce1.length, "0");
    const header = headerBytes(work.job, nonce1, nonce2);
    for (const s of solve(TEST_PARAMS, header)) {
      const wire = withLength(s);
      if (hashValue(header, wire) <= work.target) return { nonce2, solution: bytesToHex(wire) };
    }
  }
}

/**
 * A NONCE_2 with two solutions that meet the target and agree in their first 32 bytes (the length
 * byte and 31 bytes of indices), found by solving: about one nonce in 700 has such a pair.
 */
function twinSolutions(
  nonce1: string,
  work: { job: Notify; target: bigint },
): { nonce2: string; solutions: string[] } {
  for (let i = 0; ; i++) {
    const nonce2 = i.toString(16).padStart(64 - nonce1.length, "0");
    const header = headerBytes(work.job, nonce1, nonce2);
    const byHead = new Map<string, string>();
    for (const s of solve(TEST_PARAMS, header)) {
      const wire = withLength(s);
      if (hashValue(header, wire) > work.target) continue;
      const hex = bytesToHex(wire);
      const twin = byHead.get(hex.slice(0, 64));
      if (twin !== undefined && twin !== hex) return { nonce2, solutions: [twin, hex] };
      byHead.set(hex.slice(0, 64), hex);
    }
  }
}

const subscribedNonce1 = (c: RawClient, id: number): string =>
  String((c.answer(id)?.result as [null, string] | undefined)?.[1] ?? "");
const errorCode = (c: RawClient, id: number): unknown => (c.answer(id)?.error as unknown[] | undefined)?.[0];
const errorText = (c: RawClient, id: number): string =>
  String((c.answer(id)?.error as unknown[] | undefined)?.[1] ?? "");

describe("hostile input", () => {
  test("submit before authorize, malformed JSON, an unknown method, bad hex, a NONCE_2 of the wrong length, a solution whose length disagrees with its prefix, a repeated share: refused locally; repeated strikes and an oversize line close the socket (reduced Equihash parameters in the test)", async () => {
    const a = await pool();
    const t = engine();
    const listen = await t.start(eqPort({ pool_address: a.address }));

    const c = await RawClient.connect(listen);
    c.request(1, "mining.submit", ["wal.raw", "1", "00000000", "00".repeat(28), `24${"00".repeat(36)}`]);
    c.send("this is not json\n");
    c.request(3, "mining.teleport", []);
    c.request(4, "mining.subscribe", ["raw/1.0", null, "127.0.0.1", String(listen)]);
    c.request(5, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(5) !== undefined && lastNotify(c) !== null);
    expect(errorCode(c, 1)).toBe(24);
    expect(JSON.parse(c.lines[1] as string).error).toBeTruthy();
    expect(errorCode(c, 3)).toBe(20);
    expect(t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);
    const nonce1 = subscribedNonce1(c, 4);
    expect(nonce1).toBe(a.nonce1s[0] ?? "");
    expect(c.answer(5)?.result).toBe(true);

    const work = lastNotify(c) as { job: Notify; target: bigint };
    const { jobId, time } = work.job;
    const good = share(nonce1, work);
    c.request(6, "mining.submit", ["wal.raw", jobId, time, `${good.nonce2.slice(0, -2)}zz`, good.solution]);
    c.request(7, "mining.submit", ["wal.raw", jobId, time, good.nonce2.slice(2), good.solution]);
    c.request(8, "mining.submit", ["wal.raw", jobId, time, `${good.nonce2}00`, good.solution]);
    c.request(9, "mining.submit", ["wal.raw", jobId, time, good.nonce2, good.solution.slice(0, -2)]);
    c.request(10, "mining.submit", ["wal.raw", jobId, time, good.nonce2, good.solution]);
    c.request(11, "mining.submit", ["wal.raw", jobId, time, good.nonce2, good.solution]);
    // the repeat (11) is answered locally at once, the share (10) only when the pool has answered
    await until(() => c.answer(10) !== undefined && c.answer(11) !== undefined);
    expect(errorText(c, 6)).toContain("NONCE_2");
    expect(errorText(c, 7)).toContain("NONCE_2 must be");
    expect(errorText(c, 8)).toContain("NONCE_2 must be");
    expect(errorText(c, 9)).toContain("solution");
    // the one well-formed share goes to the pool and is verified there; its repeat never leaves
    expect(c.answer(10)?.result).toBe(true);
    expect(errorCode(c, 11)).toBe(22);
    expect(a.accepted).toBe(1);
    expect(a.submits.length).toBe(1);
    expect(c.closed).toBe(false);
    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);

    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"mining.subscribe","params":["${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(t.logs.some((l) => l.includes("line too long"))).toBe(true);
  });

  test("two solutions of one NONCE_2 that differ only after their first 31 bytes are two shares: both go to the pool and are accepted, and only a true repeat is refused (reduced Equihash parameters in the test)", async () => {
    // every solution meets this target, so a nonce with two such solutions (one in ~700) is found in
    // seconds, more under load (12 s once in CI); the job stays the pool's current one, and the
    // engine waits for the next as long as the search may block this thread (the tests' 5 s did not)
    const a = await pool({ difficulty: 2 ** -16, jobIntervalMs: 0 });
    const t = engine({}, { jobTimeoutMs: 120_000 });
    const listen = await t.start(eqPort({ pool_address: a.address }));
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", ["raw/1.0", null, "127.0.0.1", String(listen)]);
    c.request(2, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(2) !== undefined && lastNotify(c) !== null);
    const work = lastNotify(c) as { job: Notify; target: bigint };
    const { nonce2, solutions } = twinSolutions(subscribedNonce1(c, 1), work);
    const [first, second] = solutions as [string, string];
    expect(first.slice(0, 64)).toBe(second.slice(0, 64));
    expect(first).not.toBe(second);
    c.request(3, "mining.submit", ["wal.raw", work.job.jobId, work.job.time, nonce2, first]);
    c.request(4, "mining.submit", ["wal.raw", work.job.jobId, work.job.time, nonce2, second]);
    c.request(5, "mining.submit", ["wal.raw", work.job.jobId, work.job.time, nonce2, second]);
    await until(() => [3, 4, 5].every((id) => c.answer(id) !== undefined));
    expect(c.answer(3)?.result).toBe(true);
    expect(c.answer(4)?.result).toBe(true);
    expect(errorCode(c, 5)).toBe(22);
    expect(a.accepted).toBe(2);
  });

  test("on a ZEC port a solution of another length than Equihash 200,9's 1344 bytes is refused before it reaches the pool (reduced Equihash parameters in the test)", async () => {
    const a = await pool();
    const t = engine();
    const listen = await t.start(eqPort({ pool_address: a.address, currency: "ZEC" }));
    const c = await RawClient.connect(listen);
    c.request(1, "mining.subscribe", ["raw/1.0", null, "127.0.0.1", String(listen)]);
    c.request(2, "mining.authorize", ["wal.raw", "x"]);
    await until(() => c.answer(2) !== undefined && lastNotify(c) !== null);
    const work = lastNotify(c) as { job: Notify; target: bigint };
    const good = share(subscribedNonce1(c, 1), work);
    c.request(3, "mining.submit", ["wal.raw", work.job.jobId, work.job.time, good.nonce2, good.solution]);
    await until(() => c.answer(3) !== undefined);
    expect(errorText(c, 3)).toBe("solution must be 1344 bytes on this coin");
    expect(a.submits.length).toBe(0);
  });
});
