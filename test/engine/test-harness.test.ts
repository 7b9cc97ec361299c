import { afterEach, describe, expect, test } from "bun:test";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

const pools: TestPool[] = [];
afterEach(() => {
  for (const p of pools.splice(0)) p.stop();
});

describe("test pool + test miner, directly", () => {
  test("sha256d with version rolling: every share hashed and accepted by the pool", async () => {
    const pool = await TestPool.start({ difficulty: 2e-8 });
    pools.push(pool);
    const miner = TestMiner.start({
      port: pool.port,
      user: "alice.rig1",
      versionRolling: true,
      maxShares: 20,
    });
    const r = await miner.done;
    expect(r.authorized).toBe(true);
    expect(r.versionMask).toBe(0x1fffe000);
    expect(r.accepted).toBe(20);
    expect(pool.workers.get("alice.rig1")?.shares).toBe(20);
  });

  test("scrypt, without version rolling: real shares accepted, deliberate misses rejected", async () => {
    // scrypt's diff-1 is 2^16 times easier than sha256d's: 5e-4 passes about one hash in 33
    // (0xFFFF / (5e-4 · 2^32)), where 1e-9 would pass every hash and prove nothing.
    const pool = await TestPool.start({ category: "scrypt", difficulty: 5e-4, versionRolling: false });
    pools.push(pool);
    const r = await TestMiner.start({
      port: pool.port,
      user: "l.t",
      category: "scrypt",
      maxShares: 7,
      lowDifficultyShares: 2,
    }).done;
    expect(r.accepted).toBe(5);
    expect(r.rejected.get(23)).toBe(2);
    expect(pool.workers.get("l.t")?.shares).toBe(5);
    expect(pool.lowDifficultyRejects).toBe(2);
  });

  test("the pool's check can reject: hashes that miss the target come back as 23", async () => {
    // about one sha256d hash in 43 meets 1e-8 (0xFFFF / (1e-8 · 2^48)), so misses are plentiful
    const pool = await TestPool.start({ difficulty: 1e-8 });
    pools.push(pool);
    const r = await TestMiner.start({
      port: pool.port,
      user: "alice.rig1",
      versionRolling: true,
      maxShares: 16,
      lowDifficultyShares: 6,
    }).done;
    expect(r.submitted).toBe(16);
    expect(r.lowDifficultySubmitted).toBe(6);
    // exactly the deliberate misses are refused, each as low difficulty, and nothing else
    expect(r.rejected.get(23)).toBe(6);
    expect(r.rejected.size).toBe(1);
    expect(r.accepted).toBe(10);
    expect(pool.lowDifficultyRejects).toBe(6);
    expect(pool.rejects.get(23)).toBe(6);
    expect(pool.accepted).toBe(10);
    expect(pool.workerWork("alice.rig1")).toBeCloseTo(10 * 1e-8, 20);
  });

  test("the pool rejects a stale job, a duplicate and a low-difficulty share", async () => {
    const pool = await TestPool.start({ difficulty: 2e-8 });
    pools.push(pool);
    const lines: string[] = [];
    let notify: unknown[] = [];
    const sock = await Bun.connect({
      hostname: "127.0.0.1",
      port: pool.port,
      socket: {
        data: (_s, d) => {
          for (const l of new TextDecoder().decode(d).split("\n")) {
            if (!l) continue;
            lines.push(l);
            const m = JSON.parse(l);
            if (m.method === "mining.notify") notify = m.params;
          }
        },
      },
    });
    const waitFor = async (pred: () => boolean) => {
      while (!pred()) await Bun.sleep(5);
    };
    sock.write(
      '{"id":1,"method":"mining.subscribe","params":[]}\n{"id":2,"method":"mining.authorize","params":["w","x"]}\n',
    );
    await waitFor(() => notify.length > 0);
    // A share for nonce 0 at difficulty 1e6 is (practically) never valid: low difficulty.
    sock.write(
      `${JSON.stringify({ id: 3, method: "mining.submit", params: ["w", notify[0], "00000000", notify[7], "00000000"] })}\n`,
    );
    sock.write(
      `${JSON.stringify({ id: 4, method: "mining.submit", params: ["w", "ffff", "00000000", notify[7], "00000000"] })}\n`,
    );
    sock.write(
      `${JSON.stringify({ id: 5, method: "mining.submit", params: ["nobody", notify[0], "00000000", notify[7], "00000000"] })}\n`,
    );
    await waitFor(
      () =>
        lines.filter((l) => l.includes('"error":[')).length >= 2 && lines.some((l) => l.includes('"id":5')),
    );
    const byId = (id: number) => JSON.parse(lines.find((l) => l.includes(`"id":${id},`)) ?? "{}");
    expect(byId(4).error[0]).toBe(21);
    expect(byId(5).error[0]).toBe(24);
    const first = byId(3);
    // nonce 0 may by chance meet 2e-8 (probability 0xFFFF / (2e-8 · 2^48), about 1/86); then a
    // resubmit must be a duplicate.
    if (first.result === true) {
      sock.write(
        `${JSON.stringify({ id: 6, method: "mining.submit", params: ["w", notify[0], "00000000", notify[7], "00000000"] })}\n`,
      );
      await waitFor(() => lines.some((l) => l.includes('"id":6')));
      expect(byId(6).error[0]).toBe(22);
    } else expect(first.error[0]).toBe(23);
    sock.end();
  });
});
