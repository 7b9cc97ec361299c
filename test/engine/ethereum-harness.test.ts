import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { parseSealedHeader } from "../support/ethereum/block-header.ts";
import { boundaryForDifficulty, MAX_TARGET, workOfBoundary } from "../support/ethereum/difficulty.ts";
import {
  EPOCH_LENGTH,
  hashimotoLight,
  LIGHT_CACHE_BUILD_BUDGET_MS,
  lightCache,
} from "../support/ethereum/ethash.ts";
import { bytesToBigInt, bytesToHex, hexToBytes } from "../support/ethereum/hex.ts";
import { type Envelope, LineReader, parseEnvelope } from "../support/ethereum/json-lines.ts";
import {
  EPOCH0_CACHE_HASH,
  ETHASH_TEST_VECTORS,
  MAINNET_HEADERS,
} from "../support/ethereum/reference-vectors.ts";
import { REJECT } from "../support/ethereum/rejects.ts";
import { TestEthMiner, type TestEthMinerOptions } from "../support/ethereum/test-miner.ts";
import { TestEthPool, type TestEthPoolOptions } from "../support/ethereum/test-pool.ts";

/** Budget for a test that hashes: ≈100 ms a light hash, on two cores shared with other work. */
const HASHING_TEST_MS = 120_000;

// Build epoch 0's light cache once for the whole file (≈7 s), outside any test's budget.
beforeAll(async () => {
  await lightCache(0);
}, LIGHT_CACHE_BUILD_BUDGET_MS);

const pools: TestEthPool[] = [];
const miners: TestEthMiner[] = [];
afterEach(() => {
  for (const m of miners.splice(0)) m.stop();
  for (const p of pools.splice(0)) p.stop();
});

async function startPool(opts: TestEthPoolOptions = {}): Promise<TestEthPool> {
  const pool = await TestEthPool.start(opts);
  pools.push(pool);
  return pool;
}

function startMiner(pool: TestEthPool, opts: Omit<TestEthMinerOptions, "port">): TestEthMiner {
  const miner = TestEthMiner.start({ port: pool.port, ...opts });
  miners.push(miner);
  return miner;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await Bun.sleep(10);
}

/** The ETHPROXY work array a response carries. */
function workIn(m: Envelope | null | undefined): string[] {
  const r = m?.result;
  if (!Array.isArray(r) || !r.every((x) => typeof x === "string")) throw new Error("no work array");
  return r;
}

describe("ethash light verification against reference vectors (epoch 0)", () => {
  test("the epoch-0 light cache hashes to the ethereum/tests cache_hash", async () => {
    const cache = await lightCache(0);
    expect(bytesToHex(cache.seedHash)).toBe("00".repeat(32));
    expect(bytesToHex(cache.cacheHash())).toBe(EPOCH0_CACHE_HASH);
  });

  for (const v of ETHASH_TEST_VECTORS) {
    test(`${v.name}: exact mix digest and result`, async () => {
      const r = await hashimotoLight(0, hexToBytes(v.headerHash), BigInt(`0x${v.nonce}`));
      expect(bytesToHex(r.mixDigest)).toBe(v.mixHash);
      expect(bytesToHex(r.result)).toBe(v.result);
    });
  }

  test("Ethereum mainnet blocks 1–3: the miner's mix digest is reproduced and the seal meets 2^256/difficulty", async () => {
    let parent: Uint8Array | null = null;
    for (const block of MAINNET_HEADERS) {
      const h = parseSealedHeader(hexToBytes(block.rlp));
      // The quoted RLP is the real header: it hashes to the canonical block hash and chains to its parent.
      expect(bytesToHex(h.blockHash)).toBe(block.blockHash);
      expect(h.number).toBe(block.number);
      expect(h.number).toBeLessThan(EPOCH_LENGTH);
      if (parent !== null) expect(bytesToHex(h.parentHash)).toBe(bytesToHex(parent));
      parent = h.blockHash;

      const r = await hashimotoLight(0, h.sealHash, h.nonce);
      expect(bytesToHex(r.mixDigest)).toBe(bytesToHex(h.mixHash));
      expect(bytesToBigInt(r.result) <= (1n << 256n) / h.difficulty).toBe(true);
    }
    // The check can fail: the neighbouring nonce of block 1 yields another mix digest.
    const first = parseSealedHeader(hexToBytes(MAINNET_HEADERS[0].rlp));
    const other = await hashimotoLight(0, first.sealHash, first.nonce + 1n);
    expect(bytesToHex(other.mixDigest)).not.toBe(bytesToHex(first.mixHash));
  });
});

describe("Ethereum test pool + test miner, directly", () => {
  test(
    "ETHPROXY: every share is verified with its mix digest and credited; hashrate reports arrive",
    async () => {
      const pool = await startPool();
      const miner = startMiner(pool, { dialect: "ethproxy", user: "alice.rig1", hashrateIntervalMs: 200 });
      await until(() => miner.report.accepted >= 4 && miner.report.hashratesSent.length >= 1);
      const r = await miner.finish();

      expect(r.loggedIn).toBe(true);
      expect(r.rejected.size).toBe(0);
      expect(pool.dialects).toEqual(["ethproxy"]);
      expect(pool.accepted).toBe(r.accepted);
      expect(pool.workers.get("alice.rig1")?.shares).toBe(r.accepted);
      // Default difficulty 2^-32: the boundary is the whole 256-bit range, worth 2^-32 diff-1 shares each.
      expect(workOfBoundary(boundaryForDifficulty(2 ** -32))).toBe(2 ** -32);
      expect(boundaryForDifficulty(2 ** -32)).toBe(MAX_TARGET);
      expect(pool.workerWork("alice.rig1")).toBe(r.accepted * 2 ** -32);
      expect(r.acceptedWork).toBe(pool.workerWork("alice.rig1"));
      expect(pool.hashrates.get("alice.rig1")).toEqual(r.hashratesSent);
    },
    HASHING_TEST_MS,
  );

  test(
    "EthereumStratum/1.0.0: nonce = extranonce ‖ minernonce against a real target, credited d, follows set_extranonce",
    async () => {
      // 2^-30: about one hash in four meets the target, so a nonce the pool rebuilds differently fails.
      const difficulty = 2 ** -30;
      const pool = await startPool({ difficulty, extranonceBytes: 2 });
      const miner = startMiner(pool, { dialect: "nicehash", user: "bob.rig2" });
      await until(() => miner.report.accepted >= 3);
      const firstPrefix = miner.report.extranonce;
      pool.rotateExtranonce();
      await until(() => miner.report.accepted >= 6 && miner.report.extranonce !== firstPrefix);
      await until(() => miner.report.accepted >= 9);
      const r = await miner.finish();

      expect(r.loggedIn).toBe(true);
      expect(pool.agents).toEqual(["pithead-eth-test-miner/1.0"]);
      expect(firstPrefix).toMatch(/^[0-9a-f]{4}$/);
      expect(r.setExtranonce).toBe(1);
      expect(r.difficulty).toBe(difficulty);
      expect(r.rejected.size).toBe(0);
      expect(pool.rejects.size).toBe(0);
      expect(pool.workers.get("bob.rig2")?.shares).toBe(r.accepted);
      expect(pool.workerWork("bob.rig2")).toBe(r.accepted * difficulty);
      expect(r.acceptedWork).toBe(pool.workerWork("bob.rig2"));
      // Far more hashes than shares: the target really filtered.
      expect(r.hashes).toBeGreaterThan(r.accepted);
    },
    HASHING_TEST_MS,
  );

  test(
    "one port serves both dialects at once, crediting each worker separately",
    async () => {
      const pool = await startPool({ difficulty: 2 ** -31 });
      const eth = startMiner(pool, { dialect: "ethproxy", user: "carol", worker: "rigA", maxShares: 3 });
      const nh = startMiner(pool, { dialect: "nicehash", user: "carol.rigB", maxShares: 3 });
      const [re, rn] = await Promise.all([eth.done, nh.done]);

      expect(re.accepted).toBe(3);
      expect(rn.accepted).toBe(3);
      expect([...pool.dialects].sort()).toEqual(["ethproxy", "nicehash"]);
      expect(pool.workers.get("carol.rigA")?.shares).toBe(3);
      expect(pool.workers.get("carol.rigB")?.shares).toBe(3);
      expect(pool.totalWork()).toBeCloseTo(
        3 * workOfBoundary(boundaryForDifficulty(2 ** -31)) + 3 * 2 ** -31,
        20,
      );
    },
    HASHING_TEST_MS,
  );
});

describe("the Ethereum test pool refuses bad shares", () => {
  test(
    "a result above the target is rejected as low difficulty, in both dialects",
    async () => {
      // 2^-31: about half of all hashes miss the target, so the saboteur finds misses quickly.
      const pool = await startPool({ difficulty: 2 ** -31 });
      const eth = startMiner(pool, {
        dialect: "ethproxy",
        user: "dave.low",
        sabotage: "low-difficulty",
        maxShares: 2,
      });
      const nh = startMiner(pool, {
        dialect: "nicehash",
        user: "erin.low",
        sabotage: "low-difficulty",
        maxShares: 2,
      });
      const [re, rn] = await Promise.all([eth.done, nh.done]);

      const low = REJECT["low-difficulty"].message;
      expect(re.rejected.get(low)).toBe(2);
      expect(rn.rejected.get(low)).toBe(2);
      expect(pool.rejects.get("low-difficulty")).toBe(4);
      expect(pool.accepted).toBe(0);
      expect(pool.totalWork()).toBe(0);
    },
    HASHING_TEST_MS,
  );

  test(
    "ETHPROXY: a valid nonce with a wrong mix digest is rejected",
    async () => {
      const pool = await startPool();
      const r = await startMiner(pool, {
        dialect: "ethproxy",
        user: "frank.mix",
        sabotage: "wrong-mix",
        maxShares: 2,
      }).done;

      expect(r.rejected.get(REJECT["bad-mix"].message)).toBe(2);
      expect(pool.rejects.get("bad-mix")).toBe(2);
      expect(pool.accepted).toBe(0);
    },
    HASHING_TEST_MS,
  );

  test(
    "a share submitted twice is credited once, in both dialects",
    async () => {
      const pool = await startPool({ difficulty: 2 ** -31 });
      const eth = startMiner(pool, {
        dialect: "ethproxy",
        user: "gina.dup",
        sabotage: "duplicate",
        maxShares: 4,
      });
      const nh = startMiner(pool, {
        dialect: "nicehash",
        user: "hank.dup",
        sabotage: "duplicate",
        maxShares: 4,
      });
      const [re, rn] = await Promise.all([eth.done, nh.done]);

      const dup = REJECT.duplicate.message;
      expect([re.accepted, re.rejected.get(dup)]).toEqual([2, 2]);
      expect([rn.accepted, rn.rejected.get(dup)]).toEqual([2, 2]);
      expect(pool.rejects.get("duplicate")).toBe(4);
      expect(pool.workers.get("gina.dup")?.shares).toBe(2);
      expect(pool.workers.get("hank.dup")?.shares).toBe(2);
    },
    HASHING_TEST_MS,
  );

  test(
    "shares for a job of an earlier block are rejected as stale, in both dialects",
    async () => {
      const pool = await startPool({ jobIntervalMs: 0 });
      const eth = startMiner(pool, { dialect: "ethproxy", user: "ivy.old", sabotage: "stale", maxShares: 2 });
      const nh = startMiner(pool, { dialect: "nicehash", user: "jack.old", sabotage: "stale", maxShares: 2 });
      await until(() => eth.report.held === 2 && nh.report.held === 2);
      pool.newBlock();
      const [re, rn] = await Promise.all([eth.done, nh.done]);

      const stale = REJECT.stale.message;
      expect(re.rejected.get(stale)).toBe(2);
      expect(rn.rejected.get(stale)).toBe(2);
      expect(rn.cleanJobs).toBe(2);
      expect(pool.rejects.get("stale")).toBe(4);
      expect(pool.accepted).toBe(0);
    },
    HASHING_TEST_MS,
  );
});

describe("the Ethereum test pool on the wire", () => {
  test("refuses an unknown dialect, then speaks ETHPROXY: work array, id-0 pushes, stuck pool, new difficulty, stale and malformed shares", async () => {
    const pool = await startPool({ jobIntervalMs: 0, difficulty: 2 });
    const received: (Envelope | null)[] = [];
    const reader = new LineReader(
      (line) => received.push(parseEnvelope(line)),
      () => {},
    );
    const sock = await Bun.connect({
      hostname: "127.0.0.1",
      port: pool.port,
      socket: { data: (_s, chunk) => reader.push(chunk) },
    });
    const byId = (id: number) => received.find((m) => m?.id === id && m.method === null);
    const send = (o: object) => sock.write(`${JSON.stringify(o)}\n`);

    send({ id: 1, method: "mining.subscribe", params: ["probe/1.0", "EthereumStratum/2.0.0"] });
    send({ id: 2, jsonrpc: "2.0", method: "eth_submitLogin", params: ["0xabc.rig"], worker: "rig" });
    send({ id: 3, jsonrpc: "2.0", method: "eth_getWork", params: [] });
    await until(() => byId(3) !== undefined);
    expect(byId(1)?.error).toEqual([20, "Unsupported protocol", null]);
    expect(byId(2)?.result).toBe(true);
    const work = workIn(byId(3));
    expect(work[0]).toBe(`0x${pool.currentJobInfo.headerHex}`);
    expect(work[1]).toBe(`0x${"00".repeat(32)}`);
    // Difficulty 2 → boundary 2^224/2 = 2^223.
    expect(work[2]).toBe(`0x${(1n << 223n).toString(16).padStart(64, "0")}`);
    expect(Number.parseInt(work[3], 16)).toBeLessThan(EPOCH_LENGTH);

    pool.newJob();
    await until(() => received.some((m) => m?.id === 0));
    const push = workIn(received.find((m) => m?.id === 0));
    expect(push[0]).toBe(`0x${pool.currentJobInfo.headerHex}`);

    // Stuck: eth_getWork repeats the last work given out, not the job made meanwhile.
    pool.jobsPaused = true;
    pool.newJob();
    send({ id: 6, jsonrpc: "2.0", method: "eth_getWork", params: [] });
    await until(() => byId(6) !== undefined);
    expect(workIn(byId(6))[0]).toBe(push[0]);
    expect(push[0]).not.toBe(`0x${pool.currentJobInfo.headerHex}`);
    pool.jobsPaused = false;

    // A new difficulty comes with new work: difficulty 4 → boundary 2^222.
    pool.setDifficulty(4);
    await until(() => received.filter((m) => m?.id === 0).length === 2);
    const pushes = received.filter((m) => m?.id === 0);
    expect(workIn(pushes[1])[2]).toBe(`0x${(1n << 222n).toString(16).padStart(64, "0")}`);

    send({
      id: 4,
      jsonrpc: "2.0",
      method: "eth_submitWork",
      params: [`0x${"00".repeat(8)}`, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`],
    });
    send({ id: 5, jsonrpc: "2.0", method: "eth_submitWork", params: ["0x01", work[0], work[0]] });
    await until(() => byId(5) !== undefined);
    expect(byId(4)?.result).toBe(false);
    expect(byId(4)?.error).toEqual({ code: 21, message: REJECT.stale.message });
    expect(byId(5)?.error).toEqual({ code: 20, message: REJECT.malformed.message });
    expect(pool.dialects).toEqual(["ethproxy"]);
    sock.end();
  });
});
