/**
 * The CryptoNote (RandomX) test harness on its own: the librandomx binding against vectors from
 * outside this repository, then the hashing test miner against the verifying test pool. Light-mode
 * RandomX costs milliseconds per hash on a shared two-core machine, so difficulties stay at a few
 * hashes per share and every test gets a generous timeout; nothing asserts on time.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Socket } from "bun";
import {
  NONCE_OFFSET,
  nonceHex,
  nonceOffsetOf,
  testHashingBlob,
} from "../support/cryptonote/hashing-blob.ts";
import { LineReader, parseRpcLine, type RpcResponse } from "../support/cryptonote/json-lines.ts";
import { blockIdOf, hashingBlobOf, minerTxHash, parseBlock } from "../support/cryptonote/monero-block.ts";
import { closeSharedRandomX, sharedRandomX } from "../support/cryptonote/randomx.ts";
import {
  MAINNET_BLOCKS,
  MONEROD_BLOCK_TEMPLATE,
  MONEROD_CALC_POW,
  P2POOL_MAINNET_SHARE,
  RANDOMX_TEST_VECTORS,
} from "../support/cryptonote/reference-vectors.ts";
import { REJECT_MESSAGES } from "../support/cryptonote/share-check.ts";
import { parseTarget, targetHexForDifficulty } from "../support/cryptonote/target.ts";
import { CryptoNoteTestMiner } from "../support/cryptonote/test-miner.ts";
import { CryptoNoteTestPool } from "../support/cryptonote/test-pool.ts";

/** Light mode plus a 256 MiB cache fill per new seed: far slower than anything else in the suite. */
const SLOW = 60_000;

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const bytes = (h: string): Uint8Array => Buffer.from(h, "hex");
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const waitFor = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await Bun.sleep(10);
};

const pools: CryptoNoteTestPool[] = [];
const miners: CryptoNoteTestMiner[] = [];
afterEach(() => {
  for (const m of miners.splice(0)) m.stop();
  for (const p of pools.splice(0)) p.stop();
});
afterAll(() => closeSharedRandomX());

async function startPool(
  opts: ConstructorParameters<typeof CryptoNoteTestPool>[0],
): Promise<CryptoNoteTestPool> {
  const pool = await CryptoNoteTestPool.start(opts);
  pools.push(pool);
  return pool;
}

function startMiner(opts: Parameters<typeof CryptoNoteTestMiner.start>[0]): CryptoNoteTestMiner {
  const miner = CryptoNoteTestMiner.start(opts);
  miners.push(miner);
  return miner;
}

describe("RandomX binding against outside vectors", () => {
  test(
    "tevador/RandomX v1.1.10 hash tests 1a-1e",
    () => {
      const rx = sharedRandomX();
      for (const v of RANDOMX_TEST_VECTORS) {
        const input = typeof v.input === "string" ? utf8(v.input) : bytes(v.input.hex);
        expect({ name: v.name, hash: hex(rx.hash(utf8(v.key), input)) }).toEqual({
          name: v.name,
          hash: v.hash,
        });
      }
    },
    SLOW,
  );

  test("hashing blobs derived from mainnet blocks match monerod's (no RandomX involved)", () => {
    const derived = hashingBlobOf(bytes(MONEROD_BLOCK_TEMPLATE.blocktemplateBlob));
    expect(hex(derived)).toBe(MONEROD_BLOCK_TEMPLATE.blockhashingBlob);
    expect(nonceOffsetOf(derived)).toBe(NONCE_OFFSET);
    for (const b of MAINNET_BLOCKS) {
      const blob = bytes(b.blob);
      expect(hex(minerTxHash(parseBlock(blob)))).toBe(b.minerTxHash);
      expect(hex(blockIdOf(blob))).toBe(b.id);
    }
  });

  test(
    "monerod's calc_pow example: RandomX over a mainnet blob with that epoch's seed",
    () => {
      const hash = sharedRandomX().hash(bytes(MONEROD_CALC_POW.seedHash), bytes(MONEROD_CALC_POW.blob));
      expect(hex(hash)).toBe(MONEROD_CALC_POW.result);
    },
    SLOW,
  );

  test(
    "a real P2Pool share on a mainnet template: derived hashing blob, RandomX, and its difficulty",
    () => {
      const hashingBlob = hashingBlobOf(bytes(P2POOL_MAINNET_SHARE.blob));
      expect(hashingBlob.length).toBe(76);
      expect(nonceOffsetOf(hashingBlob)).toBe(NONCE_OFFSET);
      const hash = sharedRandomX().hash(bytes(P2POOL_MAINNET_SHARE.seedHash), hashingBlob);
      expect(hex(hash)).toBe(P2POOL_MAINNET_SHARE.powHash);
      // Monero's check_hash: the hash as a 256-bit little-endian number times the difficulty < 2^256.
      const value = BigInt(`0x${hex(Uint8Array.from(hash).reverse())}`);
      expect(value * BigInt(P2POOL_MAINNET_SHARE.sidechainDifficulty) < 1n << 256n).toBe(true);
    },
    SLOW,
  );
});

describe("CryptoNote targets", () => {
  test("xmrig's 4-byte target widening and 8-byte targets", () => {
    // 0xFFFFFFFF / 0x1FFFFFFF = 8 (integer division), so the u64 target is 0xFFFF…FF / 8.
    expect(parseTarget("ffffff1f")).toBe(0x1fff_ffff_ffff_ffffn);
    expect(parseTarget("ffffffffffffff1f")).toBe(0x1fff_ffff_ffff_ffffn);
    expect(parseTarget("00000000")).toBeNull();
    expect(parseTarget("abc")).toBeNull();
    expect(targetHexForDifficulty(8, 4)).toBe("ffffff1f");
    expect(targetHexForDifficulty(8, 8)).toBe("0000000000000020");
  });

  test("test blobs are 76 bytes with the nonce at 39", () => {
    const blob = testHashingBlob(randomBytes(32));
    expect(blob.length).toBe(76);
    expect(nonceOffsetOf(blob)).toBe(NONCE_OFFSET);
  });
});

describe("CryptoNote test pool + test miner, directly", () => {
  test(
    "shares are hashed, verified by the pool and credited to the login",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const r = await startMiner({ port: pool.port, login: "4Alice.rig1", rigid: "rig1", maxShares: 6 }).done;
      expect(r.loggedIn).toBe(true);
      expect(r.extensions).toEqual(["algo", "nicehash", "keepalive"]);
      expect(r.accepted).toBe(6);
      expect(r.rejected.size).toBe(0);
      expect(pool.accepted).toBe(6);
      expect(pool.workers.get("4Alice.rig1")?.shares).toBe(6);
      expect(pool.workerWork("4Alice.rig1")).toBeCloseTo(r.acceptedWork, 6);
      // Difficulty 4 as a 4-byte target widens to 2^64 / (2^62 - 1): a hair over 4 per share.
      expect(pool.totalWork()).toBeCloseTo(6 * 4, 6);
      expect(pool.logins).toEqual([
        { login: "4Alice.rig1", pass: "x", agent: "xmrig/6.21.0", rigid: "rig1" },
      ]);
      // The pool advertised NiceHash, so the miner kept the blob's (zero) nonce top byte.
      expect(r.nicehashJobs).toBe(r.jobs);
      expect([...r.nonceTopBytes]).toEqual([0]);
    },
    SLOW,
  );

  test(
    "8-byte targets, no NiceHash, keepalived, and vardiff's new target arriving with a new job",
    async () => {
      const pool = await startPool({
        difficulty: 2,
        targetWidth: 8,
        nicehash: false,
        vardiff: { everyShares: 2, factor: 2 },
      });
      const miner = startMiner({ port: pool.port, login: "w", keepaliveMs: 20 });
      await waitFor(() => miner.report.jobs >= 2 && miner.report.keepalives >= 1);
      // Shares found from now on are for the difficulty-4 job.
      const before = miner.report.accepted;
      await waitFor(() => miner.report.accepted >= before + 1);
      const r = await miner.finish();
      expect(r.extensions).toEqual(["algo", "keepalive"]);
      expect(r.nicehashJobs).toBe(0);
      expect(pool.keepalives).toBeGreaterThanOrEqual(1);
      expect(r.rejected.size).toBe(0);
      expect(r.acceptedWork).toBeGreaterThan(2 * r.accepted);
      expect(pool.workerWork("w")).toBeCloseTo(r.acceptedWork, 6);
    },
    SLOW,
  );

  test(
    "a share whose hash is above the target is refused",
    async () => {
      const pool = await startPool({ difficulty: 16 });
      const r = await startMiner({ port: pool.port, login: "w", misbehave: "above-target", maxShares: 3 })
        .done;
      expect(r.accepted).toBe(0);
      expect(r.rejected.get(REJECT_MESSAGES["low-difficulty"])).toBe(3);
      expect(pool.rejectCount("low-difficulty")).toBe(3);
      expect(pool.totalWork()).toBe(0);
    },
    SLOW,
  );

  test(
    "a share whose result is not the RandomX hash of its nonce is refused",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const r = await startMiner({ port: pool.port, login: "w", misbehave: "wrong-result", maxShares: 2 })
        .done;
      expect(r.accepted).toBe(0);
      expect(r.rejected.get(REJECT_MESSAGES["invalid-result"])).toBe(2);
      expect(pool.rejectCount("invalid-result")).toBe(2);
    },
    SLOW,
  );

  test(
    "a share submitted twice is credited once",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const r = await startMiner({ port: pool.port, login: "w", misbehave: "duplicate", maxShares: 4 }).done;
      expect(r.accepted).toBe(2);
      expect(r.rejected.get(REJECT_MESSAGES.duplicate)).toBe(2);
      expect(pool.workers.get("w")?.shares).toBe(2);
    },
    SLOW,
  );

  test(
    "shares for an older job: accepted on the same block, 'Block expired' after a new block",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const miner = startMiner({ port: pool.port, login: "w", misbehave: "previous-job" });
      await waitFor(() => miner.report.accepted >= 1);
      // The miner now mines the job before the latest: same block, so still valid.
      pool.newJob();
      const before = miner.report.accepted;
      await waitFor(() => miner.report.accepted >= before + 1);
      pool.newBlock();
      await waitFor(() => (miner.report.rejected.get(REJECT_MESSAGES["stale-job"]) ?? 0) >= 1);
      const r = await miner.finish();
      expect(r.rejected.get(REJECT_MESSAGES["stale-job"])).toBeGreaterThanOrEqual(1);
      expect(pool.rejectCount("stale-job")).toBe(r.rejected.get(REJECT_MESSAGES["stale-job"]) ?? 0);
      expect(pool.accepted).toBe(r.accepted);
    },
    SLOW,
  );

  test(
    "a new seed at a new block: pool and miner both follow the job's seed_hash",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const miner = startMiner({ port: pool.port, login: "w" });
      await waitFor(() => miner.report.accepted >= 1);
      const seed = randomBytes(32).toString("hex");
      pool.newBlock({ seedHash: seed });
      const before = miner.report.accepted;
      await waitFor(() => miner.report.accepted >= before + 2);
      const r = await miner.finish();
      expect(pool.currentSeedHash).toBe(seed);
      // A share in flight when the block changed may come back "Block expired"; nothing else may fail.
      expect([...r.rejected.keys()].filter((m) => m !== REJECT_MESSAGES["stale-job"])).toEqual([]);
      expect(pool.accepted).toBe(r.accepted);
    },
    SLOW,
  );

  test(
    "the protocol edges: unknown job, foreign rpc id, keepalived, unknown method, stuck pool",
    async () => {
      const pool = await startPool({ difficulty: 4 });
      const client = await RawClient.connect(pool.port);
      const login = await client.call("login", { login: "w", pass: "x", agent: "raw/1.0" });
      const result = login.result as { id: string; job: { job_id: string } };
      const unknownJob = await client.call("submit", {
        id: result.id,
        job_id: "no-such-job",
        nonce: nonceHex(1),
        result: "00".repeat(32),
      });
      expect(unknownJob.error?.message).toBe(REJECT_MESSAGES["unknown-job"]);
      const foreign = await client.call("submit", {
        id: "someone-else",
        job_id: result.job.job_id,
        nonce: nonceHex(1),
        result: "00".repeat(32),
      });
      expect(foreign.error?.message).toBe(REJECT_MESSAGES.unauthenticated);
      const malformed = await client.call("submit", {
        id: result.id,
        job_id: result.job.job_id,
        nonce: "xyz",
        result: "00",
      });
      expect(malformed.error?.message).toBe(REJECT_MESSAGES.malformed);
      expect((await client.call("keepalived", { id: result.id })).result).toEqual({ status: "KEEPALIVED" });
      const fresh = (await client.call("getjob", { id: result.id })).result as {
        job_id: string;
        blob: string;
      };
      expect(fresh.job_id).not.toBe(result.job.job_id);
      expect(fresh.blob).toHaveLength(152);
      expect((await client.call("mining.subscribe", [])).error?.code).toBe(-1);
      client.close();

      // Stuck: the connection is kept but the login (whose answer must carry a job) is never answered.
      pool.jobsPaused = true;
      const stuck = startMiner({ port: pool.port, login: "late" });
      await waitFor(() => pool.unansweredLogins === 1);
      expect(pool.connectionsOpened).toBe(2);
      expect(stuck.report.loggedIn).toBe(false);
      expect(stuck.report.disconnects).toBe(0);
      expect(pool.logins.map((l) => l.login)).toEqual(["w"]);
    },
    SLOW,
  );

  test(
    "NiceHash: the miner keeps the nonce top byte of a blob that arrives with it set",
    async () => {
      // A minimal upstream in the role of a NiceHash proxy: it hands out a blob with blob[42] = 0xab
      // and accepts whatever comes back, so the test can look at the nonces themselves.
      const blob = Buffer.from(testHashingBlob(randomBytes(32)));
      blob[NONCE_OFFSET + 3] = 0xab;
      const nonces: string[] = [];
      const job = {
        blob: blob.toString("hex"),
        job_id: "j1",
        target: targetHexForDifficulty(2, 4),
        algo: "rx/0",
        height: 1,
        seed_hash: randomBytes(32).toString("hex"),
      };
      const upstream = Bun.listen<LineReader>({
        hostname: "127.0.0.1",
        port: 0,
        socket: {
          open: (s) => {
            s.data = new LineReader(
              (line) => {
                const m = parseRpcLine(line);
                if (m === null || m.kind !== "request") return;
                if (m.method === "submit") nonces.push((m.params as { nonce: string }).nonce);
                const result =
                  m.method === "login"
                    ? { id: "r1", job, extensions: ["algo", "keepalive"], status: "OK" }
                    : { status: "OK" };
                s.write(`${JSON.stringify({ id: m.id, jsonrpc: "2.0", error: null, result })}\n`);
              },
              () => s.end(),
            );
          },
          data: (s, chunk) => s.data.push(chunk),
        },
      });
      try {
        const r = await startMiner({ port: upstream.port, login: "w", maxShares: 3 }).done;
        expect(r.accepted).toBe(3);
        expect(r.nicehashJobs).toBe(1);
        expect([...r.nonceTopBytes]).toEqual([0xab]);
        expect(nonces.map((n) => n.slice(6))).toEqual(["ab", "ab", "ab"]);
      } finally {
        upstream.stop(true);
      }
    },
    SLOW,
  );
});

/** A line-at-a-time JSON-RPC client for poking the pool with requests a miner would never send. */
class RawClient {
  private readonly waiting = new Map<number, (r: RpcResponse) => void>();
  private nextId = 1;

  private constructor(private readonly socket: Socket<undefined>) {}

  static async connect(port: number): Promise<RawClient> {
    let client: RawClient | null = null;
    const reader = new LineReader(
      (line) => {
        const m = parseRpcLine(line);
        if (m?.kind === "response" && typeof m.id === "number") client?.waiting.get(m.id)?.(m);
      },
      () => {},
    );
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: { data: (_s, chunk) => reader.push(chunk) },
    });
    client = new RawClient(socket);
    return client;
  }

  call(method: string, params: unknown): Promise<RpcResponse> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.write(`${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`);
    });
  }

  close(): void {
    this.socket.end();
  }
}
