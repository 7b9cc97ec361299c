/**
 * The pool node end to end on a real litecoind in regtest: a hashing test miner (scrypt with
 * @noble/hashes) mines through the pool's stratum port, its shares are verified, the winning ones go
 * to submitblock, and the daemon's own answers (litecoin-cli) show the chain grew with blocks whose
 * coinbase pays the pool's address and whose scrypt hash, recomputed here with @noble/hashes, meets
 * their bits. A raw stratum client then checks duplicate, stale, low-difficulty and unauthorized.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hexToBytes } from "@noble/hashes/utils.js";
import { blockStatus } from "../../../appliance/poolnode/pool/block-tracker.ts";
import { witnessCoinbase } from "../../../appliance/poolnode/pool/coinbase.ts";
import { PoolNode, type PoolNodeOptions } from "../../../appliance/poolnode/pool/pool-node.ts";
import { HandMiner } from "../../support/poolnode/hand-miner.ts";
import { cli, cliJson, RegtestPair } from "../../support/poolnode/regtest.ts";
import { until } from "../../support/stratum/port-fixture.ts";
import { RawClient } from "../../support/stratum/raw-client.ts";
import {
  digestHex,
  digestValue,
  powDigest,
  sha256d,
  targetFor,
  targetFromBits,
} from "../../support/stratum/share-check.ts";
import { TestMiner } from "../../support/stratum/test-miner.ts";

/**
 * Regtest's network target is about 2^255 (scrypt difficulty ≈ 2^-15). At 2^-8 one hash in 256 is a
 * share and every share is a block, so the test miner finds blocks without flooding the pool; at
 * 2^-16 nearly every hash is a share and about half of them blocks, so the hand miner can pick both
 * kinds on one job.
 */
const DIFFICULTY = 2 ** -8;
const FINE_DIFFICULTY = 2 ** -16;

let chain: RegtestPair;
let pool: PoolNode;
let poolAddress: string;
let minerAddress: string;
let mempoolTxs: string[];

function poolOptions(difficulty: number): PoolNodeOptions {
  return {
    coin: "LTC",
    daemon: { url: chain.rpcUrl, credentials: { cookieFile: chain.cookieFile } },
    poolAddress,
    host: "127.0.0.1",
    port: 0,
    difficulty,
    pollMs: 200,
  };
}

beforeAll(async () => {
  chain = await RegtestPair.start();
  poolAddress = await cli(chain.node, "getnewaddress");
  minerAddress = await cli(chain.node, "getnewaddress");
  // transactions for the pool's first block to carry: with the coinbase an odd count, so the merkle
  // branch needs its duplicated last node, and the witness commitment covers them
  mempoolTxs = [
    await cli(chain.node, "sendtoaddress", minerAddress, "2"),
    await cli(chain.node, "sendtoaddress", minerAddress, "3"),
  ];
  pool = await PoolNode.start(poolOptions(DIFFICULTY));
});

afterAll(async () => {
  await pool?.stop();
  await chain?.stop();
});

interface BlockView {
  height: number;
  confirmations: number;
  bits: string;
  tx: {
    txid: string;
    vin: { coinbase?: string }[];
    vout: { value: number; scriptPubKey: { hex: string; addresses?: string[] } }[];
  }[];
}

describe("mining through the pool node", () => {
  test("a hashing miner finds blocks that the daemon accepts, paying the pool", async () => {
    await until(() =>
      mempoolTxs.every((id) => pool.currentJob?.template.transactions.some((t) => t.txid === id) === true),
    );
    const heightBefore = Number(await cli(chain.node, "getblockcount"));
    const poolScript = (await cliJson<{ scriptPubKey: string }>(chain.node, "getaddressinfo", poolAddress))
      .scriptPubKey;
    const miner = TestMiner.start({
      port: pool.port,
      user: `${minerAddress}.rig1`,
      category: "scrypt",
      maxShares: 400,
    });
    await until(
      () => pool.blocks.blocks.filter((b) => b.verdict === null).length >= 3 || miner.report.disconnects > 0,
    );
    const report = await miner.finish();
    // the pool asks for confirmations itself at each new tip
    await until(() => pool.blocks.blocks.every((b) => blockStatus(b) !== "submitted"));

    expect(report.authorized).toBe(true);
    expect(report.accepted).toBeGreaterThan(0);
    // the pool counted exactly the shares it told the miner it accepted
    expect(pool.stats.accepted).toBe(report.accepted);
    expect(pool.stats.work.get(`${minerAddress}.rig1`)).toBe(report.accepted * DIFFICULTY);

    const accepted = pool.blocks.blocks.filter((b) => b.verdict === null);
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(Number(await cli(chain.node, "getblockcount"))).toBeGreaterThanOrEqual(
      heightBefore + accepted.length,
    );
    for (const found of accepted) {
      const block = await cliJson<BlockView>(chain.node, "getblock", found.hash, "2");
      expect(block.height).toBe(found.height);
      expect(block.confirmations).toBeGreaterThanOrEqual(1);
      const coinbase = block.tx[0];
      expect(coinbase?.vout[0]?.scriptPubKey.hex).toBe(poolScript);
      // BIP34 (not enforced below height 500 on regtest, so asked of the daemon's script decoder)
      const scriptSig = await cliJson<{ asm: string }>(
        chain.node,
        "decodescript",
        coinbase?.vin[0]?.coinbase ?? "",
      );
      expect(scriptSig.asm.split(" ")[0]).toBe(String(found.height));
      expect(coinbase?.vout[0]?.scriptPubKey.addresses).toEqual([poolAddress]);
      // the header's scrypt hash meets the block's own target, and its sha256d is the block's id
      const header = hexToBytes(await cli(chain.node, "getblockheader", found.hash, "false"));
      expect(digestValue(powDigest(header, "scrypt"))).toBeLessThanOrEqual(targetFromBits(block.bits));
      expect(digestHex(sha256d(header))).toBe(found.hash);
    }
    // the template's transactions went into the pool's blocks
    for (const id of mempoolTxs) {
      const tx = await cliJson<{ confirmations: number; blockhash: string }>(
        chain.node,
        "gettransaction",
        id,
      );
      expect(tx.confirmations).toBeGreaterThanOrEqual(1);
      expect(accepted.map((b) => b.hash)).toContain(tx.blockhash);
    }
  });
});

describe("block tracking", () => {
  test("a block the chain drops is orphaned, and back; after 100 confirmations the pool's blocks are mature", async () => {
    const ours = pool.blocks.blocks.filter((b) => b.verdict === null);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((b) => blockStatus(b) === "immature")).toBe(true);

    // the daemon drops our last block: a new tip, on which it is orphaned; then takes it back
    const last = ours[ours.length - 1] as (typeof ours)[number];
    await cli(chain.node, "invalidateblock", last.hash);
    await until(() => blockStatus(last) === "orphaned");
    expect((await cliJson<{ confirmations: number }>(chain.node, "getblock", last.hash)).confirmations).toBe(
      -1,
    );
    await cli(chain.node, "reconsiderblock", last.hash);
    await until(() => blockStatus(last) === "immature");

    await cli(chain.node, "generatetoaddress", "100", chain.walletAddress);
    await until(() => ours.every((b) => blockStatus(b) === "mature"));
    for (const b of ours) {
      const { confirmations } = await cliJson<{ confirmations: number }>(chain.node, "getblock", b.hash);
      expect(b.confirmations).toBeLessThanOrEqual(confirmations);
      expect(b.confirmations).toBeGreaterThanOrEqual(100);
    }
  });
});

const code = (error: unknown): unknown => (Array.isArray(error) ? error[0] : error);

describe("share checks", () => {
  test("a share twice is a duplicate; after the pool's block on the job every share is stale", async () => {
    const fine = await PoolNode.start(poolOptions(FINE_DIFFICULTY));
    await until(() => fine.currentJob !== null);
    const hand = await HandMiner.connect(fine.port, `${minerAddress}.hand`);
    try {
      const shareTarget = targetFor(FINE_DIFFICULTY, "scrypt");
      const networkTarget = targetFromBits(hand.job.nbits);
      const plain = hand.find("00000001", (v) => v > networkTarget && v <= shareTarget);
      expect(await hand.submit("00000001", plain)).toBeNull();
      expect(code(await hand.submit("00000001", plain))).toBe(22);
      expect(code(await hand.submit("00000001", plain, { jobId: "fffff" }))).toBe(21);
      expect(code(await hand.submit("00000001", plain, { worker: `${minerAddress}.other` }))).toBe(24);

      const blocksBefore = fine.blocks.blocks.length;
      const countBefore = Number(await cli(chain.node, "getblockcount"));
      const winning = hand.find("00000002", (v) => v <= networkTarget);
      const late = hand.find("00000003", (v) => v <= shareTarget);
      // back to back: the late share arrives before the daemon's next template could
      const winningId = hand.send("00000002", winning);
      const lateId = hand.send("00000003", late);
      expect(await hand.verdict(winningId)).toBeNull();
      expect(code(await hand.verdict(lateId))).toBe(21);
      await until(() => fine.blocks.blocks.length > blocksBefore);
      const found = fine.blocks.blocks[blocksBefore];
      expect(found?.verdict).toBeNull();
      expect(Number(await cli(chain.node, "getblockcount"))).toBe(countBefore + 1);
      expect(await cli(chain.node, "getbestblockhash")).toBe(found?.hash as string);
    } finally {
      hand.close();
      await fine.stop();
    }
  });

  test("the block's coinbase carries the witness reserved value and keeps its txid", async () => {
    await until(() => pool.currentJob !== null);
    const job = pool.currentJob as NonNullable<typeof pool.currentJob>;
    const plain = `${job.coinbase.coinb1}0000000100000002${job.coinbase.coinb2}`;
    const decoded = await cliJson<{ txid: string; hash: string; vin: { txinwitness?: string[] }[] }>(
      chain.node,
      "decoderawtransaction",
      witnessCoinbase(plain),
    );
    expect(decoded.vin[0]?.txinwitness).toEqual(["00".repeat(32)]);
    expect(decoded.txid).toBe(digestHex(sha256d(hexToBytes(plain))));
    expect(decoded.hash).not.toBe(decoded.txid);
  });

  test("a hash above the share target is low difficulty; an address the daemon refuses is unauthorized", async () => {
    await until(() => pool.currentJob !== null);
    const hand = await HandMiner.connect(pool.port, minerAddress);
    try {
      const target = targetFor(DIFFICULTY, "scrypt");
      const rejectedBefore = pool.stats.rejected.get(23) ?? 0;
      const weak = hand.find("00000001", (v) => v > target);
      expect(code(await hand.submit("00000001", weak))).toBe(23);
      expect(pool.stats.rejected.get(23)).toBe(rejectedBefore + 1);
    } finally {
      hand.close();
    }
    const stranger = await RawClient.connect(pool.port);
    stranger.request(1, "mining.subscribe", []);
    stranger.request(2, "mining.authorize", ["1NotAnAddress.rig", "x"]);
    await until(() => stranger.answer(2) !== undefined);
    expect(code(stranger.answer(2)?.error)).toBe(24);
    stranger.close();
  });
});

describe("version rolling (BIP310)", () => {
  test("a rolling miner's blocks are accepted with the versions it rolled", async () => {
    await until(() => pool.currentJob !== null);
    const jobVersion = Number.parseInt(pool.currentJob?.version ?? "0", 16);
    const worker = `${minerAddress}.vr`;
    const ours = () => pool.blocks.blocks.filter((b) => b.worker === worker && b.verdict === null);
    const miner = TestMiner.start({
      port: pool.port,
      user: worker,
      category: "scrypt",
      versionRolling: true,
    });
    await until(() => ours().length >= 3 || miner.answered >= 1000);
    const report = await miner.finish();
    expect(report.versionMask).toBe(0x1fffe000);
    expect(ours().length).toBeGreaterThanOrEqual(3);
    const versions: number[] = [];
    for (const b of ours())
      versions.push((await cliJson<{ version: number }>(chain.node, "getblockheader", b.hash)).version);
    // only the negotiated bits differ from the job's version, and some blocks did roll them
    expect(versions.every((v) => (v & ~0x1fffe000) === (jobVersion & ~0x1fffe000))).toBe(true);
    expect(versions.some((v) => v !== jobVersion)).toBe(true);
  });

  test("bits outside the mask, or without negotiation, are refused", async () => {
    const rolling = await HandMiner.connect(pool.port, `${minerAddress}.vr2`, "ffffffff");
    try {
      expect(rolling.configured).toEqual({ "version-rolling": true, "version-rolling.mask": "1fffe000" });
      expect(await rolling.submit("00000001", "00000000", { versionBits: "00000001" })).toEqual([
        20,
        "version bits outside the negotiated mask",
        null,
      ]);
    } finally {
      rolling.close();
    }
    const plain = await HandMiner.connect(pool.port, `${minerAddress}.vr3`);
    try {
      expect(await plain.submit("00000001", "00000000", { versionBits: "00002000" })).toEqual([
        20,
        "version rolling was not negotiated",
        null,
      ]);
    } finally {
      plain.close();
    }
  });
});

describe("vardiff", () => {
  test("quick shares raise the difficulty; a share keeps its job's difficulty", async () => {
    const vardiff = await PoolNode.start({
      ...poolOptions(FINE_DIFFICULTY),
      vardiff: { targetSeconds: 10, min: FINE_DIFFICULTY, max: 1 },
    });
    const worker = `${minerAddress}.vd`;
    try {
      await until(() => vardiff.currentJob !== null);
      const hand = await HandMiner.connect(vardiff.port, worker);
      const oldJob = hand.job;
      const fine = targetFor(FINE_DIFFICULTY, "scrypt");
      const raised = targetFor(FINE_DIFFICULTY * 4, "scrypt");
      const networkTarget = targetFromBits(oldJob.nbits);
      // eight shares in well under the target time, none a block (a block would end the job)
      for (let i = 1; i <= 8; i++) {
        const en2 = i.toString(16).padStart(8, "0");
        expect(
          await hand.submit(
            en2,
            hand.find(en2, (v) => v > networkTarget && v <= fine),
          ),
        ).toBeNull();
      }
      await until(() => hand.difficulties().length >= 2);
      expect(hand.difficulties()).toEqual([FINE_DIFFICULTY, FINE_DIFFICULTY * 4]);
      await hand.nextJob();
      expect(hand.job.jobId).not.toBe(oldJob.jobId);
      // fresh work: another coinbase, so no share of the old job is valid work again under the new id
      expect(hand.job.coinb1 + hand.job.coinb2).not.toBe(oldJob.coinb1 + oldJob.coinb2);

      // the old job keeps the difficulty it was sent with; the new one asks for the raised one
      const newJob = hand.job;
      hand.job = oldJob;
      const late = hand.find("00000010", (v) => v > networkTarget && v <= fine && v > raised);
      expect(await hand.submit("00000010", late)).toBeNull();
      hand.job = newJob;
      const weak = hand.find("00000011", (v) => v > networkTarget && v <= fine && v > raised);
      expect(code(await hand.submit("00000011", weak))).toBe(23);
      expect(vardiff.stats.work.get(worker)).toBe(9 * FINE_DIFFICULTY);
      hand.close();
    } finally {
      await vardiff.stop();
    }
  });
});

describe("the listener's limits", () => {
  test("a connection that authorizes no worker in time is closed; one that did stays", async () => {
    const strict = await PoolNode.start({ ...poolOptions(DIFFICULTY), loginTimeoutMs: 1500 });
    try {
      await until(() => strict.currentJob !== null);
      const miner = await HandMiner.connect(strict.port, minerAddress);
      const idle = await RawClient.connect(strict.port);
      idle.request(1, "mining.subscribe", []);
      // the idle one connected later, so the miner's deadline passed before its own
      await until(() => idle.closed);
      expect(miner.closed).toBe(false);
      miner.close();
    } finally {
      await strict.stop();
    }
  });

  test("connections beyond the cap are closed at once", async () => {
    const small = await PoolNode.start({ ...poolOptions(DIFFICULTY), maxConnections: 1 });
    try {
      const first = await RawClient.connect(small.port);
      await until(() => small.connections === 1);
      const second = await RawClient.connect(small.port);
      await until(() => second.closed);
      first.request(1, "mining.subscribe", []);
      await until(() => first.answer(1) !== undefined);
      expect(first.closed).toBe(false);
      first.close();
    } finally {
      await small.stop();
    }
  });
});
